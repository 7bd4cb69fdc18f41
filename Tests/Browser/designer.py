#!/usr/bin/env python3
"""A designer's templates in a real browser: headless Chromium driven through WebDriver.

Usage: designer.py BASE_URL

BASE_URL serves a site built with the templates of BrowserTests.aDesignersTilesAndTitleFollowTheStrip:

- a tile partial whose image is in a <figure> with a caption (the title and the artist, each in
  a `data-field` element), a price badge (`data-field="price"`, a param) and a star, on tiles
  of the class `tile tile-card`;
- an album page whose <title> is "Artist – Title | Site", and a carousel partial whose
  `data-title` gives that pattern.

The tiles the script draws as the strip scrolls must be the designer's, each with its own
album's words; the page's title must follow the selection in the site's format, and be left
alone when the pattern does not give it. Each check prints `ok NAME` or `FAIL NAME: why`; the
exit status is 1 if any failed.
"""
import json
import sys
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import chrome
import report

BASE = sys.argv[1].rstrip("/") + "/"
ALBUMS = json.load(urllib.request.urlopen(BASE + "albums.json"))["albums"]
DEADLINE = 30  # seconds any one wait may take
PAGE_SIZE = 20  # the test site's index_page_size: index page 1 holds albums 0 to 19
SITE_TITLE = "Plattenladen"


def chromium():
    return chrome.chromium(watch_scrolling=True)

def wait(driver, condition, what):
    return report.wait(lambda: condition(driver), what, DEADLINE)


def open_fresh(driver, path=""):
    """Opens a page as a first visit: no remembered album in localStorage."""
    origin = "/".join(BASE.split("/", 3)[:3])
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"})
    driver.get(BASE + path)


def current(driver):
    return driver.execute_script(
        "var t = document.querySelector('#carousel .tile.current'); return t ? +t.dataset.index : null;")


def off_centre(driver, index):
    """How far the strip is from centring album `index` by the seed's formula (as far as the
    strip can scroll), computed from the carousel's data attributes."""
    return driver.execute_script("""
        var c = document.getElementById('carousel'), d = c.dataset, v = c.querySelector('.viewport'), i = arguments[0];
        var x = +d.offset + +d.padding + i * (+d.dimension + 2 * +d.padding) + +d.dimension / 2 - v.clientWidth / 2;
        return Math.abs(v.scrollLeft - Math.max(0, Math.min(v.scrollWidth - v.clientWidth, x)));""", index)


def settled_on(driver, index):
    """Waits until album `index` is current, centred, and shown in the details table, and the
    strip's scroll has ended."""
    wait(driver, lambda d: current(d) == index and off_centre(d, index) <= 1 and d.execute_script(
        "return !stillScrolling() && document.querySelector('#details [data-field=title]').textContent;") == ALBUMS[index]["title"],
         f"album {index} to be current, centred and in the table (current {current(driver)}, {off_centre(driver, index)} px off)")


def press(driver, key, index):
    driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(key)
    settled_on(driver, index)


def mark_the_pages_tiles(driver):
    """Marks the tiles in the strip now with a property a copy does not carry, so a tile the
    script draws later is told apart, even at an index the page came with."""
    driver.execute_script("document.querySelectorAll('#carousel .tile').forEach(function (t) { t.fromPage = true; });")


def tile_problems(driver, selected):
    """What in the strip is not the designer's tile with its own album's words: every tile's
    markup and text, and which tile carries the selection. Returns (problems, the indices of
    the tiles in the strip, the indices of those the script drew)."""
    tiles = driver.execute_script("""
        return [].map.call(document.querySelectorAll('#carousel .tile'), function (t) {
            var text = function (s) { var e = t.querySelector(s); return e && e.textContent; };
            var link = t.querySelector('a'), img = t.querySelector('a > figure.tile-figure > img');
            return {index: +t.dataset.index, fromPage: !!t.fromPage, classes: t.className, href: link.href,
                    current: t.classList.contains('current'), ariaCurrent: link.getAttribute('aria-current'),
                    src: img && img.src, alt: img && img.alt, left: t.style.left, position: t.getAttribute('aria-posinset'),
                    caption: text('figure > figcaption > span.tile-caption[data-field=title]'),
                    artist: text('figure > figcaption > small.tile-artist[data-field=artist]'),
                    price: text('a > span.tile-price[data-field=price]'), badge: text('a > span.tile-badge')};
        });""")
    stride = driver.execute_script(
        "var c = document.getElementById('carousel').dataset; return [+c.offset, +c.padding, +c.dimension];")
    offset, padding, dimension = stride
    problems = []
    for tile in tiles:
        i = tile["index"]
        album = ALBUMS[i]
        expected = {
            # "loading" comes and goes with the image.
            "classes": ["current", "tile", "tile-card"] if i == selected else ["tile", "tile-card"],
            "href": BASE + album["url"], "src": BASE + album["image"], "alt": f"{album['title']} by {album['artist']}",
            "left": f"{offset + padding + i * (dimension + 2 * padding)}px", "position": str(i + 1),
            "caption": album["title"], "artist": album["artist"],
            "price": (album.get("params") or {}).get("price", ""), "badge": "★",
            "current": i == selected,
        }
        tile["classes"] = sorted(set(tile["classes"].split()) - {"loading"})
        wrong = {key: tile[key] for key, value in expected.items() if tile[key] != value}
        if (tile["ariaCurrent"] is not None) != (i == selected):
            wrong["ariaCurrent"] = tile["ariaCurrent"]
        if wrong:
            problems.append(f"tile {i} ({'the page' if tile['fromPage'] else 'the script'}'s): {wrong}")
    indices = sorted(tile["index"] for tile in tiles)
    drawn = sorted(tile["index"] for tile in tiles if not tile["fromPage"])
    return problems, indices, drawn


def strip_is_the_designers(driver, selected, holding):
    """Waits until the strip holds the tiles `holding` and every tile in it is the designer's,
    with its album's words; returns the indices of the tiles the script drew."""
    found = []

    def right(d):
        found[:] = [tile_problems(d, selected)]
        problems, indices, _ = found[0]
        return not problems and set(holding) <= set(indices)

    try:
        wait(driver, right, f"the strip around album {selected} to hold tiles {min(holding)}–{max(holding)}, all the designer's")
    except AssertionError:
        problems, indices, _ = found[0] if found else ([], [], [])
        raise AssertionError(f"around album {selected}, tiles {indices[:1]}…{indices[-1:]}: " + "; ".join(problems[:4])) from None
    return found[0][2]


def tiles_the_script_draws_are_the_designers(driver):
    """Scrolled to the end, back to the start and on: the tiles the script draws from the data
    files (beyond the index page's 20) have the designer's figure, caption, price and star, each
    with its album's words, and the page's own, taken away, are put back as the page had them;
    a tile's caption stays its own album's when another is selected; one tile carries the
    selection."""
    open_fresh(driver)
    settled_on(driver, 0)
    mark_the_pages_tiles(driver)
    strip_is_the_designers(driver, 0, range(0, 8))
    last = len(ALBUMS) - 1
    press(driver, Keys.END, last)
    drawn = strip_is_the_designers(driver, last, range(last - 8, last + 1))
    assert set(range(PAGE_SIZE, last + 1)) & set(drawn), f"the script drew none of the tiles beyond the page's (drew {drawn})"
    first_in_strip = "return !!document.querySelector('#carousel .tile[data-index=\"0\"]');"
    assert not driver.execute_script(first_in_strip), "the page's first tile was not taken away at the end"
    press(driver, Keys.HOME, 0)
    strip_is_the_designers(driver, 0, range(0, 8))
    own = driver.execute_script("var t = document.querySelector('#carousel .tile[data-index=\"0\"]'); return !!(t && t.fromPage);")
    assert own, "the page's first tile was not put back as the page had it"
    for index in (1, 2):
        press(driver, Keys.ARROW_RIGHT, index)
        strip_is_the_designers(driver, index, range(0, 8))


def an_album_pages_drawn_tiles_are_the_designers(driver):
    """On an album page (±5 neighbours, links two folders down) the tiles the script draws as
    the selection moves on are the designer's, their links and images the right albums'."""
    start = 30
    open_fresh(driver, ALBUMS[start]["url"])
    settled_on(driver, start)
    mark_the_pages_tiles(driver)
    for index in range(start + 1, start + 4):
        press(driver, Keys.ARROW_RIGHT, index)
    drawn = strip_is_the_designers(driver, start + 3, range(start - 2, start + 8))
    assert any(i > start + 5 for i in drawn), f"the script drew no tile beyond the page's (drawn: {drawn})"


def page_title(driver):
    return driver.execute_script("return document.title;")


def own_title(album):
    return f"{album['artist']} – {album['title']} | {SITE_TITLE}"


def the_title_follows_the_selection_in_the_sites_format(driver):
    """An album page whose <title> is the site's own format ("Artist – Title | Site", given to
    the script as the carousel's data-title) keeps it as the page follows the selection."""
    start = 10
    open_fresh(driver, ALBUMS[start]["url"])
    settled_on(driver, start)
    assert page_title(driver) == own_title(ALBUMS[start]), f"the page came with the title {page_title(driver)!r}"
    for index in (start + 1, start + 2):
        press(driver, Keys.ARROW_RIGHT, index)
        wait(driver, lambda d: d.current_url == BASE + ALBUMS[index]["url"] and page_title(d) == own_title(ALBUMS[index]),
             f"album {index}'s address and title {own_title(ALBUMS[index])!r} (saw {driver.current_url}, {page_title(driver)!r})")
    press(driver, Keys.END, len(ALBUMS) - 1)
    wait(driver, lambda d: page_title(d) == own_title(ALBUMS[-1]),
         f"the last album's title {own_title(ALBUMS[-1])!r} (saw {page_title(driver)!r})")


def a_title_its_pattern_does_not_give_comes_from_the_page(driver):
    """A data-title that does not give the page's own title (here the built-in format, on a page
    of the site's) is not used: the title is never one the site does not write, and once the
    selection rests it is the selected album's page's own."""
    source = """new MutationObserver(function (changes, observer) {
        var c = document.getElementById('carousel');
        if (c) { c.setAttribute('data-title', '{title} · {artist} · """ + SITE_TITLE + """'); observer.disconnect(); }
    }).observe(document, {childList: true, subtree: true});"""
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
    try:
        start = 20
        open_fresh(driver, ALBUMS[start]["url"])
        settled_on(driver, start)
        assert driver.execute_script("return document.getElementById('carousel').dataset.title;").startswith("{title} · ")
        driver.execute_script("""window.titles = []; new MutationObserver(function () { titles.push(document.title); })
            .observe(document.querySelector('title'), {childList: true, characterData: true, subtree: true});""")
        press(driver, Keys.ARROW_RIGHT, start + 1)
        wait(driver, lambda d: d.current_url == BASE + ALBUMS[start + 1]["url"], "the address to follow the selection")
        wait(driver, lambda d: page_title(d) == own_title(ALBUMS[start + 1]),
             f"the title of album {start + 1}'s page (saw {page_title(driver)!r})")
        titles = driver.execute_script("return window.titles;")
        assert set(titles) <= {own_title(ALBUMS[start + 1])}, f"the page showed titles the site never writes: {titles}"
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def shop(driver):
    return driver.execute_script("""
        var a = document.querySelector('main a.buy'), m = document.querySelector('head meta[name=album]');
        return {href: a && a.getAttribute('href'), text: a && a.textContent, meta: m && m.content,
                metas: document.querySelectorAll('head meta[name=album]').length,
                focus: !!(document.activeElement && document.activeElement.closest('#carousel'))};""")


def what_the_template_writes_for_an_album_follows_the_selection(driver):
    """A link the album template writes from a param (a shop's "Buy" link) and a head tag with
    the album's slug are the selected album's once the selection rests, taken from its page;
    an album without the param has no link; the focus stays in the carousel throughout."""
    start = 35
    open_fresh(driver, ALBUMS[start]["url"])
    settled_on(driver, start)
    for index in (start + 1, start + 2):
        album = ALBUMS[index]
        press(driver, Keys.ARROW_RIGHT, index)
        if index == 37:  # album 38 has no price, so no shop link
            expected = {"href": None, "text": None, "meta": album["slug"], "metas": 1, "focus": True}
        else:
            price = album["params"]["price"]
            expected = {"href": f"https://shop.example/{album['slug']}", "text": f"Buy {album['title']} for {price}",
                        "meta": album["slug"], "metas": 1, "focus": True}
        seen = []
        try:
            wait(driver, lambda d: seen.append(shop(d)) or seen[-1] == expected, f"album {index}'s shop link and head tag")
        except AssertionError:
            raise AssertionError(f"album {index}'s shop link and head tag: expected {expected}, saw {seen[-1:]}") from None
    # Back to the first: its own again.
    press(driver, Keys.HOME, 0)
    press(driver, Keys.ARROW_RIGHT, 1)
    wait(driver, lambda d: shop(d)["href"] == f"https://shop.example/{ALBUMS[1]['slug']}", f"album 1's shop link (saw {shop(driver)})")


def no_console_errors(driver):
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, "console errors: " + json.dumps(errors)


def main():
    failures = 0
    driver = chromium()
    try:
        for check in [tiles_the_script_draws_are_the_designers, an_album_pages_drawn_tiles_are_the_designers,
                      the_title_follows_the_selection_in_the_sites_format, a_title_its_pattern_does_not_give_comes_from_the_page,
                      what_the_template_writes_for_an_album_follows_the_selection, no_console_errors]:
            failures += not report.run(check, driver)
    finally:
        driver.quit()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
