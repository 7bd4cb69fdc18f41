#!/usr/bin/env bash
# Times making thumbnails of N covers (default 500) of SIZE×SIZE pixels (default 1200), half JPEG
# and half PNG: a cold and a warm `gallery build` against sigal (PyPI) on the same images, side
# by side in one run.
#
#   Benchmarks/bench-thumbnails.sh [--runs R] [--count N] [--size SIZE] [--libvips PATH|pypi]
#
# --libvips adds a third contender: gallery with another libvips (through GALLERY_LIBVIPS), such
# as a newer one than the system's. `--libvips pypi` fetches the self-contained libvips of the
# pyvips-binary wheel from PyPI into the bench folder. The libvips versions are printed.
#
# Environment:
#   GALLERY_BIN  the gallery binary (default: .build/release/gallery at the repo root)
#   BENCH_DIR    where the sites and outputs go (default: /dev/shm/gallery-bench/thumbnails)
#
# The covers are deterministic photo-like images (gradients, shapes, grain) written with Pillow.
# gallery makes three JPEG thumbnails per cover at quality 80 (the 100 px tile, its 200 px 2x
# copy, and the 300 px album image), plus every page; sigal makes two (a 300 px image and a
# 100 px cropped thumbnail, JPEG quality 80) plus its pages, on all cores. So gallery does half as
# much image work again as sigal here, and the ratio understates gallery's advantage.
# Cold: each tool's output and caches deleted first. Warm: the same build again, nothing changed.
# Each round runs both, in alternating order. Prints medians and ratios (sigal/gallery; above 1
# means gallery is faster) and writes Benchmarks/results/thumbnails-<date>.json.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

runs=3
count=500
size=1200
libvips=
while (($#)); do
    case "$1" in
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --count) count=${2:?--count needs a number}; shift 2 ;;
        --size) size=${2:?--size needs a number}; shift 2 ;;
        --libvips) libvips=${2:?--libvips needs a path to libvips.so or pypi}; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "bench-thumbnails.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
    esac
done
for number in "$runs" "$count" "$size"; do
    [[ $number =~ ^[1-9][0-9]*$ ]] || { echo "bench-thumbnails.sh: '$number' is not a positive whole number" >&2; exit 2; }
done

gallery_bin=${GALLERY_BIN:-$root/.build/release/gallery}
[[ $gallery_bin == /* ]] || gallery_bin="$PWD/$gallery_bin"
bench_dir=${BENCH_DIR:-/dev/shm/gallery-bench/thumbnails}
[[ -x $gallery_bin ]] || { echo "bench-thumbnails.sh: no gallery binary at $gallery_bin; build it (swift build -c release) or set GALLERY_BIN" >&2; exit 1; }
command -v sigal >/dev/null || python3 -m pip install --quiet sigal
command -v sigal >/dev/null || { echo "bench-thumbnails.sh: sigal is not installed (python3 -m pip install sigal)" >&2; exit 1; }

rm -rf "$bench_dir"
mkdir -p "$bench_dir/gallery/content/covers" "$bench_dir/sigal-src/covers"

if [[ $libvips == pypi ]]; then
    python3 -m pip download --quiet --no-deps --only-binary :all: pyvips-binary -d "$bench_dir/wheel" \
        || { echo "bench-thumbnails.sh: cannot download pyvips-binary from PyPI" >&2; exit 1; }
    python3 -m zipfile -e "$bench_dir"/wheel/pyvips_binary-*.whl "$bench_dir/wheel/unpacked"
    libvips=$(find "$bench_dir/wheel/unpacked" -name 'libvips-*.so.42' | head -1)
    [[ -n $libvips ]] || { echo "bench-thumbnails.sh: the pyvips-binary wheel has no libvips-*.so.42" >&2; exit 1; }
fi
if [[ -n $libvips ]]; then
    [[ $libvips == /* ]] || libvips="$PWD/$libvips"
    [[ -f $libvips ]] || { echo "bench-thumbnails.sh: no libvips at $libvips" >&2; exit 1; }
fi
# The version of a libvips file (or of the system's, for libvips.so.42).
vips_version() {
    python3 -c 'import ctypes, sys; lib = ctypes.CDLL(sys.argv[1]); lib.vips_version_string.restype = ctypes.c_char_p; print(lib.vips_version_string().decode())' "$1"
}
system_vips=$(vips_version libvips.so.42)
other_vips=${libvips:+$(vips_version "$libvips")}

# The covers, once; sigal's source album holds hard links to the same files.
python3 - "$count" "$size" "$bench_dir" <<'EOF'
import json, os, random, sys
from PIL import Image, ImageDraw, ImageFilter
count, size, bench = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
covers = os.path.join(bench, "gallery", "content", "covers")
albums = []
for i in range(count):
    rng = random.Random(i)
    base = Image.linear_gradient("L").resize((size, size)).rotate(rng.randrange(360))
    image = Image.merge("RGB", [base.point(lambda v, k=k: (v * rng.uniform(0.3, 1) + rng.randrange(80)) % 256) for k in range(3)])
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x, y, r = rng.randrange(size), rng.randrange(size), rng.randrange(size // 20, size // 4)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(rng.randrange(256) for _ in range(3)))
    image = image.filter(ImageFilter.GaussianBlur(2))
    grain = Image.effect_noise((size, size), 18).convert("RGB")
    image = Image.blend(image, grain, 0.08)
    name = f"{i:04}.jpg" if i % 2 == 0 else f"{i:04}.png"
    path = os.path.join(covers, name)
    image.save(path, quality=90) if name.endswith(".jpg") else image.save(path, compress_level=6)
    os.link(path, os.path.join(bench, "sigal-src", "covers", name))
    albums.append({"title": f"Cover {i}", "artist": "Bench", "genre": "Benchmark", "year": 2000 + i % 25,
                   "cover_url": f"covers/{name}", "slug": f"cover-{i}"})
with open(os.path.join(bench, "gallery", "content", "albums.json"), "w") as file:
    json.dump({"version": 1, "albums": albums}, file, indent=1)
EOF
cat >"$bench_dir/gallery/gallery.toml" <<'EOF'
[thumbnails]
format = "jpeg"
quality = 80
large = 300
EOF
cat >"$bench_dir/sigal.conf.py" <<EOF
source = "$bench_dir/sigal-src"
destination = "$bench_dir/sigal-out"
img_processor = "ResizeToFit"
img_format = "JPEG"
img_size = (300, 300)
thumb_size = (100, 100)
thumb_fit = True
jpg_options = {"quality": 80, "optimize": False, "progressive": False}
keep_orig = False
use_orig = False
EOF

now() { date +%s%N; }
results=$bench_dir/results.tsv
: >"$results"

run() {  # $1 = tool, $2 = cold|warm
    local start end
    if [[ $2 == cold && $1 == gallery* ]]; then rm -rf "$bench_dir/gallery/.gallery-cache" "$bench_dir/gallery/public"; fi
    if [[ $2 == cold && $1 == sigal ]]; then rm -rf "$bench_dir/sigal-out"; fi
    start=$(now)
    if [[ $1 == gallery ]]; then
        "$gallery_bin" build --site "$bench_dir/gallery" -q >"$bench_dir/gallery.log" 2>&1 \
            || { echo "bench-thumbnails.sh: gallery build failed:" >&2; tail -20 "$bench_dir/gallery.log" >&2; exit 1; }
    elif [[ $1 == gallery-libvips ]]; then
        GALLERY_LIBVIPS=$libvips "$gallery_bin" build --site "$bench_dir/gallery" -q >"$bench_dir/gallery.log" 2>&1 \
            || { echo "bench-thumbnails.sh: gallery build with $libvips failed:" >&2; tail -20 "$bench_dir/gallery.log" >&2; exit 1; }
    else
        sigal build -q -c "$bench_dir/sigal.conf.py" >"$bench_dir/sigal.log" 2>&1 \
            || { echo "bench-thumbnails.sh: sigal failed:" >&2; tail -20 "$bench_dir/sigal.log" >&2; exit 1; }
    fi
    end=$(now)
    printf '%s-%s\t%s\n' "$1" "$2" "$(( (end - start) / 1000 ))" >>"$results"
}

# One untimed warm-up of each, checking each made what it should.
tools=(gallery sigal)
[[ -n $libvips ]] && tools+=(gallery-libvips)
for tool in "${tools[@]}"; do
    run "$tool" cold
    [[ $tool == gallery* ]] || continue
    made=$(find "$bench_dir/gallery/public" -name "*.jpg" | wc -l)
    ((made >= 3 * count)) || { echo "bench-thumbnails.sh: $tool wrote $made JPEG thumbnails, expected $((3 * count))" >&2; exit 1; }
done
sigal_made=$(find "$bench_dir/sigal-out" -path '*/static' -prune -o -type f \( -name '*.jpg' -o -name '*.png' \) -print | wc -l)
((sigal_made >= 2 * count)) || { echo "bench-thumbnails.sh: sigal wrote $sigal_made JPEGs, expected $((2 * count))" >&2; exit 1; }
: >"$results"
for round in $(seq "$runs"); do
    # Each round starts with another tool, so none always runs first.
    order=("${tools[@]:round % ${#tools[@]}}" "${tools[@]:0:round % ${#tools[@]}}")
    for tool in "${order[@]}"; do run "$tool" cold; run "$tool" warm; done
done

mkdir -p "$here/results"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 - "$results" "$count" "$size" "$runs" "$here/results/thumbnails-$stamp.json" "$commit" "$(sigal --version 2>&1 | tail -1)" "$made" "$sigal_made" "$system_vips" "$other_vips" <<'EOF'
import json, os, statistics, sys
path, count, size, runs, output, commit, sigal, made, sigal_made, system_vips, other_vips = sys.argv[1:12]
times = {}
for line in open(path):
    tool, micros = line.rstrip("\n").split("\t")
    times.setdefault(tool, []).append(int(micros) / 1e6)
medians = {tool: statistics.median(values) for tool, values in times.items()}
print(f"{count} covers of {size}x{size} px, {runs} runs, load average {os.getloadavg()[0]:.2f}")
print(f"gallery wrote {made} thumbnails, sigal {sigal_made} images")
print(f"gallery: libvips {system_vips}" + (f"; gallery-libvips: libvips {other_vips}" if other_vips else ""))
print(f"{'build':<24}{'median s':>10}")
for tool in sorted(medians):
    print(f"{tool:<24}{medians[tool]:>10.3f}")
ratios = {f"{gallery}-{state}": medians[f"sigal-{state}"] / medians[f"{gallery}-{state}"]
          for gallery in ("gallery", "gallery-libvips") for state in ("cold", "warm")
          if f"{gallery}-{state}" in medians}
for name, ratio in ratios.items():
    print(f"sigal/{name}: {ratio:.2f}")
json.dump({"count": int(count), "size": int(size), "runs": int(runs), "seconds": times, "medians": medians,
           "ratios": ratios, "commit": commit, "sigal": sigal, "gallery_thumbnails": int(made),
           "sigal_images": int(sigal_made), "load_average": os.getloadavg(),
           "libvips": system_vips, "other_libvips": other_vips or None},
          open(output, "w"), indent=1, sort_keys=True)
print(f"wrote {output}")
EOF
