#!/usr/bin/env python3
"""Write two equivalent album sites with N albums, one for gallery and one for Hugo.

Usage: generate-site.py N OUTDIR

  OUTDIR/gallery/  content/albums.json, content/covers/*.svg, gallery.toml
  OUTDIR/hugo/     hugo.toml, content/albums/<slug>.md, content/data/albums-K.md, layouts/,
                   static/

The albums come from a seeded RNG and are generated one after another, so the output is
byte-identical for the same N and the first 1000 albums of N=10000 are the albums of N=1000.
Every album gets an explicit slug, so both generators write the same page paths.

The Hugo layouts mirror gallery's built-in templates (templates/*.mustache at the time of
writing): same elements, attributes, tile markup and relative links, so pages have about the
same size. The album page's ±15 window is computed in O(window) per page: the page's position
is its weight − 1 (weights are 1…N, dense; Hugo treats weight 0 as "unweighted"), and the window
is sliced with `first K (after LO …)` out of a list of every album's rendered tile, which one
`partialCached` partial builds once per build; only the current tile is rendered per page.
(Filtering pages with `where` on the weight is O(N) per page, O(N²) in all; a partial call per
tile made the build 3.7× slower in CPU time. See README.md.) albums.json and its chunks
(data/albums-K.json; each chunk is an unlisted content page) print one cached list of JSON lines.
Hugo cannot rasterise SVG, so where gallery makes 100, 200 and 300 px thumbnails of a cover, the
Hugo site has the SVG three times, scaled by its width and height, under fingerprint-like names.
"""

import hashlib
import json
import math
import os
import random
import shutil
import sys
import unicodedata

SEED = 20241122
WINDOW = 15
PADDING, DIMENSION, OFFSET = 10, 100, 100
STRIDE = DIMENSION + 2 * PADDING
CHUNK = 256  # albums per data/albums-K.json, as gallery's DataFile.chunkSize
THUMBNAIL_SIZES = (100, 200, 300)  # gallery's tile, 2x tile and album-page cover sizes
SITE_TITLE = "Albums"

FIRST_NAMES = [
    "Anna", "Björn", "Chloé", "Dmitri", "Élodie", "Fatima", "Gustav", "Hélène", "Inès", "Jürgen",
    "Kenji", "Lucía", "Mateus", "Nadia", "Oskar", "Paulína", "Quentin", "Rósa", "Søren", "Tomás",
    "Úrsula", "Viktor", "Wiebke", "Xiaoling", "Yusuf", "Zoë", "Marcus", "Sarah", "James", "Emily",
    "David", "Grace", "Leon", "Mia", "Nina", "Omar", "Priya", "Ruth", "Sam", "Tess", "Ada", "Miles",
    "Billie", "Nick", "Joni", "Ella", "Thelonious", "Françoise", "Caetano", "Agnetha",
]
LAST_NAMES = [
    "Andersson", "Brontë", "Castillo", "Dvořák", "Eriksen", "Fernández", "García", "Håkansson",
    "Ivanova", "Jørgensen", "Kowalczyk", "Łukasiewicz", "Müller", "Nakamura", "O'Brien", "Petrović",
    "Quiñones", "Rønning", "Schröder", "Tanaka", "Urquhart", "Vasquez", "Weiß", "Young", "Zając",
    "Smith", "Brown", "Taylor", "Johnson", "Williams", "Martin", "Moreau", "Rossi", "Silva", "Kim",
    "Nguyen", "Okafor", "Haddad", "Lindqvist", "Novák", "Çelik", "Dubois", "Costa", "Walsh", "Reyes",
]
ADJECTIVES = [
    "Blue", "Electric", "Silent", "Golden", "Broken", "Midnight", "Velvet", "Hidden", "Endless",
    "Wild", "Paper", "Crystal", "Northern", "Lonely", "Burning", "Quiet", "Neon", "Distant",
    "Sweet", "Strange", "Bitter", "Frozen", "Little", "Holy", "Secret", "Early", "Late", "Red",
    "Pale", "Lucky", "Sacred", "Restless", "Hollow", "Bright", "Fading", "Tender", "Savage",
]
NOUNS = [
    "River", "Garden", "Machine", "Mirror", "Harbour", "Horizon", "Window", "Engine", "Ocean",
    "Highway", "Station", "Forest", "Signal", "Echo", "Island", "Heart", "Letter", "Room", "Shadow",
    "Summer", "Winter", "City", "Desert", "Moon", "Sun", "Fire", "Rain", "Storm", "Dream", "Ghost",
    "Circus", "Orchard", "Lantern", "Compass", "Velocity", "Satellite", "Cathedral", "Meadow",
]
PLURALS = [
    "Wolves", "Strangers", "Kings", "Lovers", "Sparrows", "Giants", "Machines", "Sisters",
    "Brothers", "Pilots", "Ghosts", "Tigers", "Saints", "Hearts", "Comets", "Dreamers", "Rivers",
]
PLACES = [
    "Montreux", "the Fillmore", "Budokan", "Røskilde", "São Paulo", "Zürich", "Reykjavík",
    "the Olympia", "Carnegie Hall", "Kraków", "Montréal", "Göteborg", "the Blue Note", "Wembley",
]
FOREIGN_TITLES = [
    "Über den Wolken", "Nuit blanche", "Canções do mar", "La vie en rouge", "Mañana será otro día",
    "Sólo tú", "Sommarnatt", "Fjärran", "Rêverie", "Träumerei", "Ça ira", "Cœur de pirate",
    "Ånd og stål", "Þögn", "Dziękuję", "Česká píseň", "Açaí", "Niñas del sol",
]
NON_LATIN = [
    ("Кино", "Группа крови"), ("坂本 龍一", "音楽図鑑"), ("Μίκης", "Ζορμπάς"),
    ("עומר", "שירים"), ("서울", "밤의 노래"), ("Ансамбль", "Тишина"),
]
GENRES = [
    "Jazz", "Rock", "Pop", "Electronic", "Classical", "Hip-Hop", "Folk", "Blues", "R&B", "Soul",
    "Metal", "Ambient", "Bossa Nova", "Chanson", "Música Popular Brasileira", "K-Pop",
    "Drum & Bass", "Country", "Reggae", "Punk", "Singer-Songwriter", "Synth-pop", "Krautrock",
]
ENSEMBLES = ["Trio", "Quartet", "Quintet", "Ensemble", "Orchestra", "Band", "Collective", "Big Band"]
COVER_COLOURS = [
    ("#1f3a6b", "#e8a33a"), ("#c8323c", "#f7eedb"), ("#2d6a4f", "#b7e4c7"), ("#3a0ca3", "#f72585"),
    ("#343a40", "#ffd166"), ("#5e548e", "#e0b1cb"), ("#0b525b", "#99e2b4"), ("#7f5539", "#ede0d4"),
]

FOLD = {"ß": "ss", "æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th"}


def slugify(text: str, max_length: int = 80) -> str:
    """Lowercase ASCII words joined by '-', like gallery's Slug.make (diacritics dropped, & → and)."""
    words, word = [], []
    for ch in text.lower():
        if ch in "'\u2019":
            continue
        if ch == "&":
            if word:
                words.append("".join(word)); word = []
            words.append("and")
            continue
        ch = FOLD.get(ch, ch)
        base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
        if base and all(c.isalnum() for c in base):
            word.append(base)
        else:
            if word:
                words.append("".join(word)); word = []
    if word:
        words.append("".join(word))
    slug = ""
    for w in words:
        candidate = f"{slug}-{w}" if slug else w
        if len(candidate) > max_length:
            break
        slug = candidate
    return slug


def make_artist(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.45:
        return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
    if r < 0.65:
        return f"The {rng.choice(ADJECTIVES)} {rng.choice(PLURALS)}"
    if r < 0.75:
        return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)} & the {rng.choice(PLURALS)}"
    if r < 0.85:
        return f"{rng.choice(LAST_NAMES)} {rng.choice(ENSEMBLES)}"
    if r < 0.93:
        return f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}"
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}-{rng.choice(LAST_NAMES)}"


def make_title(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.30:
        title = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}"
    elif r < 0.42:
        title = f"The {rng.choice(NOUNS)} of {rng.choice(NOUNS)}"
    elif r < 0.50:
        title = f"{rng.choice(NOUNS)} & {rng.choice(NOUNS)}"
    elif r < 0.58:
        title = f"Songs for {rng.choice(FIRST_NAMES)}"
    elif r < 0.64:
        title = f"Live at {rng.choice(PLACES)}"
    elif r < 0.74:
        title = rng.choice(FOREIGN_TITLES)
    elif r < 0.80:
        title = f"Don't Wake the {rng.choice(NOUNS)}"
    elif r < 0.85:
        title = f"\"{rng.choice(ADJECTIVES)}\" Sessions"
    else:
        title = f"{rng.choice(NOUNS)}s"
    if rng.random() < 0.08:
        title += f", Vol. {rng.randint(2, 4)}"
    elif rng.random() < 0.04:
        title += f" ({rng.randint(1990, 2023)} Remaster)"
    return title


def make_albums(n: int):
    rng = random.Random(SEED)
    albums, taken = [], set()
    for i in range(n):
        if rng.random() < 0.02:
            artist, title = rng.choice(NON_LATIN)
        else:
            artist, title = make_artist(rng), make_title(rng)
        base = slugify(f"{artist} {title}") or "album"
        slug, suffix = base, 2
        while slug in taken:
            slug = f"{base}-{suffix}"
            suffix += 1
        taken.add(slug)
        albums.append({
            "title": title,
            "artist": artist,
            "genre": rng.choice(GENRES),
            "year": rng.randint(1955, 2024),
            "cover_url": f"covers/cover-{rng.randrange(len(COVER_COLOURS)) + 1}.svg",
            "slug": slug,
        })
    return albums


def cover_svg(number: int, colours, size: int = 300) -> str:
    background, accent = colours
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 300 300">\n'
        f'  <title>Cover {number}</title>\n'
        f'  <rect width="300" height="300" fill="{background}"/>\n'
        f'  <circle cx="150" cy="150" r="{60 + number * 8}" fill="{accent}" fill-opacity="0.8"/>\n'
        f'  <circle cx="150" cy="150" r="12" fill="{background}"/>\n'
        f'  <text x="150" y="280" text-anchor="middle" font-family="sans-serif" font-size="24" fill="{accent}">No. {number}</text>\n'
        '</svg>\n'
    )


def write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_covers(folder: str, sizes=()) -> dict:
    """Writes the covers; returns cover_url → the URLs the site uses for it, one per size. Without
    sizes (gallery's site) the covers are cover-N.svg. With sizes (Hugo's, which cannot rasterise
    SVG) each cover is written once per size, scaled by its width and height, and named like
    gallery's thumbnails: 16 hex digits of the content's SHA-256, then -SIZE."""
    urls = {}
    for number, colours in enumerate(COVER_COLOURS, start=1):
        if not sizes:
            write(os.path.join(folder, f"cover-{number}.svg"), cover_svg(number, colours))
        for size in sizes:
            text = cover_svg(number, colours, size)
            name = f"{hashlib.sha256(text.encode()).hexdigest()[:16]}-{size}.svg"
            write(os.path.join(folder, name), text)
            urls.setdefault(f"covers/cover-{number}.svg", []).append("covers/" + name)
    return urls


def write_gallery(root: str, albums) -> None:
    archive = {"version": 1, "albums": albums}
    write(os.path.join(root, "content", "albums.json"),
          json.dumps(archive, ensure_ascii=False, indent=2) + "\n")
    write_covers(os.path.join(root, "content", "covers"))
    write(os.path.join(root, "gallery.toml"),
          f'title = "{SITE_TITLE}"\n'
          'base_url = "/"\n'
          'language = "en"\n'
          '\n'
          '[carousel]\n'
          '# The benchmark compares with a Hugo site whose index carries the whole strip.\n'
          'index_page_size = 1000000\n')


HUGO_CONFIG = f'''baseURL = "/"
title = "{SITE_TITLE}"
languageCode = "en"
disableKinds = ["taxonomy", "term", "RSS", "section"]
disableHugoGeneratorInject = true

[outputs]
home = ["HTML", "AlbumsJSON", "CarouselSVG"]
page = ["HTML"]

[outputFormats.AlbumsJSON]
mediaType = "application/json"
baseName = "albums"
isPlainText = true
notAlternative = true

[outputFormats.ChunkJSON]
mediaType = "application/json"
isPlainText = true
notAlternative = true

[outputFormats.CarouselSVG]
mediaType = "image/svg+xml"
baseName = "carousel"
isPlainText = true
notAlternative = true

[params]
padding = {PADDING}
dimension = {DIMENSION}
offset = {OFFSET}
window = {WINDOW}
'''

# Every page's frame, as templates/base.mustache, as a Hugo base template: blocks are resolved
# when templates are compiled, so the frame costs no partial call per page (a partial call costs
# about 20 µs in Hugo 0.111). `$root` is the relative path to the site root.
HUGO_BASEOF = """{{- $root := "../../" -}}{{ if .IsHome }}{{ $root = "./" }}{{ else if eq .Kind "404" }}{{ $root = "/" }}{{ end -}}
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="{{ site.LanguageCode }}" xml:lang="{{ site.LanguageCode }}">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>{{ block "title" . }}{{ site.Title }}{{ end }}</title>
{{ if eq .Kind "page" }}<meta name="description" content="{{ .Title }} by {{ .Params.artist }} ({{ .Params.genre }}, {{ .Params.year }})"/>
{{ end -}}
<link rel="icon" href="data:,"/>
<link rel="stylesheet" href="{{ $root }}assets/gallery.3f2a9c1e57.css"/>
<script src="{{ $root }}assets/gallery.8b41d0c7e2.js" defer="defer"></script>

</head>
<body>
<header class="site-header">
<a class="site-title" href="{{ $root }}">{{ site.Title }}</a>
</header>
<main id="main">
{{ block "main" . }}{{ end }}
</main>
<footer class="site-footer">
<p>{{ len site.RegularPages }} {{ cond (eq (len site.RegularPages) 1) "album" "albums" }} · <a href="{{ $root }}carousel.svg">carousel as SVG</a> · <a href="{{ $root }}albums.json">data</a></p>
</footer>
</body>
</html>
"""

HUGO_DETAILS = """{{- define "details" -}}
<table class="details" id="details">
<caption>About this album</caption>
<tbody>
<tr><th scope="row">Artist</th><td data-field="artist" dir="auto">{{ .Params.artist }}</td></tr>
<tr><th scope="row">Album</th><td data-field="title" dir="auto">{{ .Title }}</td></tr>
<tr><th scope="row">Genre</th><td data-field="genre" dir="auto">{{ .Params.genre }}</td></tr>
<tr><th scope="row">Year</th><td data-field="year">{{ .Params.year }}</td></tr>
</tbody>
</table>
{{ end -}}
"""


def carousel(page: str, root: str, tiles: str) -> str:
    """The strip as templates/partials/carousel.mustache around `tiles`; needs `$n` and `$i`."""
    return ('<section class="carousel" id="carousel" aria-roledescription="carousel" aria-label="Albums" '
            'data-page="%s" data-count="{{ $n }}" data-current="{{ $i }}" data-padding="%d" '
            'data-dimension="%d" data-offset="%d" data-chunk="%d" data-root="%s" '
            'data-alt="{title} by {artist}" data-status="{number} of {count}: {title} by {artist}">\n'
            '<a class="carousel-skip" href="#carousel-end">Skip the album covers</a>\n'
            '<div class="carousel-controls">\n'
            '<button type="button" class="carousel-previous" aria-controls="strip" hidden="hidden">'
            '<span aria-hidden="true">‹</span> Previous album</button>\n'
            '<button type="button" class="carousel-next" aria-controls="strip" hidden="hidden">'
            'Next album <span aria-hidden="true">›</span></button>\n'
            '</div>\n'
            '<div class="viewport" role="group" tabindex="0" aria-label="Albums">\n'
            '<ol class="strip" id="strip" style="width:{{ add %d (mul $n %d) }}px;height:%dpx;--tile:%dpx;--pad:%dpx">\n'
            '%s</ol>\n</div>\n<span id="carousel-end" tabindex="-1"></span>\n'
            '<p class="carousel-help" id="carousel-help" hidden="hidden">Album covers: the arrow keys, Home and End move between albums, Enter opens one</p>\n'
            '<p class="carousel-status" role="status"></p>\n</section>\n'
            % (page, PADDING, DIMENSION, OFFSET, CHUNK, root, 2 * OFFSET, STRIDE, DIMENSION + 2 * PADDING,
               DIMENSION, PADDING, tiles))


OPENING_WIDTH = 1280  # gallery's SiteRenderer.openingViewportWidth


def opening_range(i: int, n: int) -> range:
    """The tiles a viewport OPENING_WIDTH wide shows when it opens centred on tile i of n, as
    gallery's ScrollerLayout.initiallyVisibleRange: their images are not loaded lazily."""
    content = 2 * OFFSET + n * STRIDE
    x = OFFSET + PADDING + i * STRIDE + DIMENSION / 2 - OPENING_WIDTH / 2
    x = min(max(0, x), max(0, content - OPENING_WIDTH))
    start = OFFSET + PADDING
    first = max(0, math.floor((x - start - DIMENSION) / STRIDE) + 1)
    last = min(n, math.ceil((x + OPENING_WIDTH - start) / STRIDE))
    return range(first, last) if first < last else range(0)


# opening_range as Hugo computes it for page i of n (clamping commutes with the monotone range):
# first = min(max(i + A, F0), n − E), last = min(max(i + B, L0), n). The constants come from a
# tile far from both ends and from the ends; write_hugo checks them against opening_range.
_MID = 1000
OPENING_A = opening_range(_MID, 3 * _MID).start - _MID
OPENING_B = opening_range(_MID, 3 * _MID).stop - _MID
OPENING_F0, OPENING_L0 = opening_range(0, 3 * _MID).start, opening_range(0, 3 * _MID).stop
OPENING_E = 3 * _MID - opening_range(3 * _MID - 1, 3 * _MID).start
OPENING_HUGO = ("{{- $ef := add $i %d }}{{ $ef = cond (lt $ef %d) %d $ef }}{{ $ef = cond (gt $ef (sub $n %d)) (sub $n %d) $ef -}}\n"
                "{{- $el := add $i %d }}{{ $el = cond (lt $el %d) %d $el }}{{ $el = cond (gt $el $n) $n $el -}}\n"
                % (OPENING_A, OPENING_F0, OPENING_F0, OPENING_E, OPENING_E, OPENING_B, OPENING_L0, OPENING_L0))


def opening_formula(i: int, n: int) -> range:
    first = min(max(i + OPENING_A, OPENING_F0), n - OPENING_E)
    last = min(max(i + OPENING_B, OPENING_L0), n)
    return range(max(first, 0), last) if max(first, 0) < last else range(0)


def tile(index: str, page: str, root: str, current: str, lazy: str = "true") -> str:
    """One tile as templates/partials/tile.mustache; `current` is "" or a template condition, and
    `lazy` "true", "" (never lazy) or a template condition. The tile shows the 100 px cover with
    the 200 px one for 2x screens."""
    loading = ' loading="lazy"' if lazy == "true" else "" if not lazy else '{{ if %s }} loading="lazy"{{ end }}' % lazy
    if current == "true":
        cls, aria = " current", ' aria-current="page"'
    elif current:
        cls, aria = "{{ if %s }} current{{ end }}" % current, '{{ if %s }} aria-current="true"{{ end }}' % current
    else:
        cls, aria = "", ""
    return ('<li class="tile%s" style="left:{{ add %d (mul %s %d) }}px;top:%dpx" data-index="{{ %s }}" '
            'aria-posinset="{{ add %s 1 }}" aria-setsize="{{ $n }}">'
            '<a href="%salbums/{{ %s.Slug }}/"%s><img src="%s{{ %s.Params.cover }}" '
            'srcset="%s{{ %s.Params.cover_2x }} 2x" width="%d" height="%d" '
            'alt="{{ %s.Title }} by {{ %s.Params.artist }}"%s/></a></li>\n'
            % (cls, OFFSET + PADDING, index, STRIDE, PADDING, index, index, root, page, aria, root, page,
               root, page, DIMENSION, DIMENSION, page, page, loading))


# Home: the whole strip in weight order, positions from the index, the first album's details.
# Tiles are written inline: a partial per tile would double the template time.
HUGO_INDEX = ("""{{- define "main" -}}
{{- $pages := site.RegularPages.ByWeight -}}
{{- $n := len $pages -}}{{- $i := 0 -}}
""" + OPENING_HUGO + """<h1>{{ site.Title }}</h1>
""" + carousel("index", "./", "{{ range $k, $p := $pages }}" + tile("$k", "$p", "./", "eq $k $i", "or (lt $k $ef) (ge $k $el)") + "{{ end }}")
    + """{{ template "details" index $pages 0 }}{{ end -}}
""" + HUGO_DETAILS)

# Every album's tile as album pages show it (not current), rendered once per build: album pages
# slice their window out of this list. (partialCached; a partial can return a value.)
# The tiles an album page opens showing (about eleven) are not lazy: those come from a second
# list, the same tiles without loading="lazy".
HUGO_ALBUM_TILES = ("""{{- $tiles := slice -}}
{{- range site.RegularPages.ByWeight }}{{ $tiles = $tiles | append (partial "album-tile.html" .) }}{{ end -}}
{{- return $tiles -}}
""")
HUGO_ALBUM_TILE = ("""{{- $n := len site.RegularPages -}}{{- $k := sub .Weight 1 -}}
""" + tile("$k", "$", "../../", ""))
HUGO_ALBUM_EAGER_TILES = ("""{{- $tiles := slice -}}
{{- range site.RegularPages.ByWeight }}{{ $tiles = $tiles | append (partial "album-eager-tile.html" .) }}{{ end -}}
{{- return $tiles -}}
""")
HUGO_ALBUM_EAGER_TILE = ("""{{- $n := len site.RegularPages -}}{{- $k := sub .Weight 1 -}}
""" + tile("$k", "$", "../../", "", ""))
# A window tile from the list that fits: `$j` is its index, `$t` the lazy one.
PICK_TILE = "{{ if and (ge $j $ef) (lt $j $el) }}{{ index $eager $j }}{{ else }}{{ $t }}{{ end }}"

# Album page: position = weight − 1; the ±15 window is two slices of the cached tile list around
# the current tile, which is rendered here; previous and next by index. The large image is the
# 300 px cover, as gallery's album page shows its largest thumbnail.
HUGO_SINGLE = ("""{{- define "title" }}{{ .Title }} · {{ .Params.artist }} · {{ site.Title }}{{ end -}}
{{- define "main" -}}
{{- $pages := site.RegularPages.ByWeight -}}
{{- $n := len $pages -}}
{{- $i := sub .Weight 1 -}}
{{- $lo := cond (gt $i %d) (sub $i %d) 0 -}}
{{- $tiles := partialCached "album-tiles.html" . "album-tiles" -}}
{{- $eager := partialCached "album-eager-tiles.html" . "album-eager-tiles" -}}
%s{{- $p := . -}}
<h1><span data-field="title" dir="auto">{{ .Title }}</span> <span class="by">by <span data-field="artist" dir="auto">{{ .Params.artist }}</span></span></h1>
<img class="cover" src="../../{{ .Params.cover_large }}" fetchpriority="high" width="%d" height="%d" alt="Cover of {{ .Title }} by {{ .Params.artist }}" data-alt="Cover of {title} by {artist}" data-alt-none="No cover for {title} by {artist}"/>
""" % (WINDOW, WINDOW, OPENING_HUGO, 3 * DIMENSION, 3 * DIMENSION)
    + carousel("album", "../../", "{{ range $k, $t := first (sub $i $lo) (after $lo $tiles) }}{{ $j := add $lo $k }}" + PICK_TILE + "{{ end }}"
               + tile("$i", "$p", "../../", "true", "or (lt $i $ef) (ge $i $el)")
               + "{{ range $k, $t := first %d (after (add $i 1) $tiles) }}{{ $j := add $i 1 $k }}" % WINDOW + PICK_TILE + "{{ end }}")
    + """{{ template "details" . -}}
<nav class="album-nav" aria-label="Previous and next album">
{{ if gt $i 0 }}{{ with index $pages (sub $i 1) }}<a rel="prev" href="../../albums/{{ .Slug }}/"><span class="arrow" aria-hidden="true">←</span> <bdi>{{ .Title }}</bdi></a>
{{ end }}{{ end -}}
{{ if lt (add $i 1) $n }}{{ with index $pages (add $i 1) }}<a rel="next" href="../../albums/{{ .Slug }}/"><bdi>{{ .Title }}</bdi> <span class="arrow" aria-hidden="true">→</span></a>
{{ end }}{{ end -}}
</nav>
{{ end -}}
""" + HUGO_DETAILS)

HUGO_404 = """{{- define "title" }}Not found · {{ site.Title }}{{ end -}}
{{- define "main" -}}
<h1>Not found</h1>
<p>There is no album here. <a href="/">Back to all albums</a>.</p>
{{ end -}}
"""

# Every album's line of albums.json and of the chunks, made once per build (partialCached, like
# the tiles): strings encoded with jsonify. A returned value is not escaped, so the (HTML) partial
# can make JSON.
HUGO_ALBUM_JSON = """{{- $lines := slice -}}
{{- range site.RegularPages.ByWeight -}}
{{- $lines = $lines | append (printf `{"slug":"%s","title":%s,"artist":%s,"genre":%s,"year":%d,"url":"albums/%s/","image":%s,"srcset":%s,"cover":%s}` .Slug (jsonify .Title) (jsonify .Params.artist) (jsonify .Params.genre) .Params.year .Slug (jsonify .Params.cover) (jsonify (print .Params.cover_2x " 2x")) (jsonify .Params.cover_large)) -}}
{{- end -}}
{{- return $lines -}}
"""


def json_file(head: str, albums: str) -> str:
    """Plain-text template: `head`, then the cached JSON lines `albums` (an expression on `$lines`)."""
    return ('{{- $lines := partialCached "album-json.html" . "album-json" -}}\n' + head + '\n'
            '{{ range $k, $line := ' + albums + ' }}{{ if $k }},\n{{ end }}{{ $line }}{{ end }}\n]}\n')


# albums.json and its chunks data/albums-K.json, as gallery writes them (plain text). A chunk is a
# content page (content/data/albums-K.md, unlisted, so not in site.RegularPages) whose `start`
# says which albums it holds.
HUGO_JSON = json_file('{"version":1,"count":{{ len $lines }},"initial":0,"layout":'
                      '{"padding":%d,"dimension":%d,"offset":%d},\n"albums":[' % (PADDING, DIMENSION, OFFSET), "$lines")
HUGO_CHUNK = json_file('{"start":{{ .Params.start }},"albums":[', "first %d (after .Params.start $lines)" % CHUNK)

# carousel.svg, as gallery writes it: plain text, so text goes through htmlEscape.
HUGO_SVG = """{{- $pages := site.RegularPages.ByWeight -}}{{- $w := add %d (mul (len $pages) %d) -}}
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{{ $w }}" height="%d" viewBox="0 0 {{ $w }} %d" lang="{{ site.LanguageCode }}" xml:lang="{{ site.LanguageCode }}">
<title>{{ site.Title }}</title>
<desc>{{ len $pages }} {{ cond (eq (len $pages) 1) "album" "albums" }}</desc>
<defs><style>.current{fill:none;stroke:#0b57d0;stroke-width:3}</style></defs>
<g class="strip">
{{ range $k, $p := $pages -}}{{ $x := add %d (mul $k %d) -}}
<a href="albums/{{ $p.Slug }}/"><title>{{ printf "%%s by %%s" $p.Title $p.Params.artist | htmlEscape }}</title><image href="{{ $p.Params.cover }}" x="{{ $x }}" y="%d" width="%d" height="%d" preserveAspectRatio="xMidYMid slice"/>{{ if eq $k 0 }}<rect class="current" x="{{ $x }}" y="%d" width="%d" height="%d"/>{{ end }}</a>
{{ end -}}
</g>
</svg>
""" % (2 * OFFSET, STRIDE, DIMENSION + 2 * PADDING, DIMENSION + 2 * PADDING, OFFSET + PADDING, STRIDE,
       PADDING, DIMENSION, DIMENSION, PADDING, DIMENSION, DIMENSION)

# Static files standing in for gallery's fingerprinted assets: the repository's own, when there.
ASSETS = {"gallery.css": "gallery.3f2a9c1e57.css", "gallery.js": "gallery.8b41d0c7e2.js",
          "placeholder.svg": "placeholder.5d1e6a7b90.svg"}


def toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def write_hugo(root: str, albums) -> None:
    for i in range(len(albums)):
        assert opening_formula(i, len(albums)) == opening_range(i, len(albums)), f"the Hugo site's opening tiles differ at {i}"
    write(os.path.join(root, "hugo.toml"), HUGO_CONFIG)
    layouts = os.path.join(root, "layouts")
    for path, text in [("_default/baseof.html", HUGO_BASEOF), ("index.html", HUGO_INDEX),
                       ("_default/single.html", HUGO_SINGLE), ("404.html", HUGO_404),
                       ("index.albumsjson.json", HUGO_JSON), ("data/single.chunkjson.json", HUGO_CHUNK),
                       ("index.carouselsvg.svg", HUGO_SVG), ("partials/album-tiles.html", HUGO_ALBUM_TILES),
                       ("partials/album-tile.html", HUGO_ALBUM_TILE), ("partials/album-json.html", HUGO_ALBUM_JSON),
                       ("partials/album-eager-tiles.html", HUGO_ALBUM_EAGER_TILES),
                       ("partials/album-eager-tile.html", HUGO_ALBUM_EAGER_TILE)]:
        write(os.path.join(layouts, path), text)
    static = os.path.join(root, "static")
    cover_urls = write_covers(os.path.join(static, "covers"), sizes=THUMBNAIL_SIZES)
    repo_assets = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets")
    for source, name in ASSETS.items():
        path = os.path.join(repo_assets, source)
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else "/* %s */\n" % source
        write(os.path.join(static, "assets", name), text)
    content = os.path.join(root, "content")
    os.makedirs(os.path.join(content, "albums"), exist_ok=True)
    for weight, album in enumerate(albums, start=1):
        small, double, large = cover_urls[album["cover_url"]]
        front = (
            "+++\n"
            f"title = {toml_string(album['title'])}\n"
            f"artist = {toml_string(album['artist'])}\n"
            f"genre = {toml_string(album['genre'])}\n"
            f"year = {album['year']}\n"
            f"cover = {toml_string(small)}\n"
            f"cover_2x = {toml_string(double)}\n"
            f"cover_large = {toml_string(large)}\n"
            f"slug = {toml_string(album['slug'])}\n"
            f"weight = {weight}\n"
            "+++\n"
        )
        with open(os.path.join(content, "albums", album["slug"] + ".md"), "w", encoding="utf-8", newline="\n") as f:
            f.write(front)
    for start in range(0, len(albums), CHUNK):
        k = start // CHUNK
        write(os.path.join(content, "data", f"albums-{k}.md"),
              f'+++\nurl = "/data/albums-{k}.json"\noutputs = ["ChunkJSON"]\nstart = {start}\n'
              '[_build]\nlist = "never"\n+++\n')


def main(argv) -> int:
    if len(argv) != 3 or not argv[1].isdigit() or int(argv[1]) < 1:
        print("usage: generate-site.py N OUTDIR   (N ≥ 1 albums)", file=sys.stderr)
        return 2
    n, out = int(argv[1]), argv[2]
    albums = make_albums(n)
    for name in ("gallery", "hugo"):
        path = os.path.join(out, name)
        if os.path.exists(path):
            shutil.rmtree(path)
    write_gallery(os.path.join(out, "gallery"), albums)
    write_hugo(os.path.join(out, "hugo"), albums)
    print(f"wrote {n} albums to {os.path.join(out, 'gallery')} and {os.path.join(out, 'hugo')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
