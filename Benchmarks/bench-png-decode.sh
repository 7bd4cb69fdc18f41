#!/usr/bin/env bash
# Times decoding the PNG covers of bench-thumbnails.sh's site to pixels, one thread: libvips's own
# decode (libpng over zlib) against gallery's (png_pixels.c: libdeflate, SSE2 unfiltering), and
# checks they give the same pixels (png-decode.c). Run bench-thumbnails.sh once first, or pass
# PNG files.
#
#   Benchmarks/bench-png-decode.sh [PNG...]
#
# Environment: BENCH_DIR as for bench-thumbnails.sh (default /dev/shm/gallery-bench/thumbnails).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
bench_dir=${BENCH_DIR:-/dev/shm/gallery-bench/thumbnails}
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    shopt -s nullglob
    files=("$bench_dir"/gallery/content/covers/*.png)
fi
[ ${#files[@]} -gt 0 ] || { echo "bench-png-decode.sh: no PNGs; run bench-thumbnails.sh first, or name some" >&2; exit 1; }
binary=$(mktemp -d)/png-decode
trap 'rm -rf "$(dirname "$binary")"' EXIT
# shellcheck disable=SC2046
cc -O2 -I"$root/Sources/CVipsShim/include" -o "$binary" "$here/png-decode.c" "$root/Sources/CVipsShim/png_pixels.c" \
    $(pkg-config --cflags --libs vips) -ldl
"$binary" "${files[@]}"
