#!/usr/bin/env bash
# The floor under a cold `gallery build`: how fast could any build go that validates every page
# with libxml2 and writes it, and how close gallery comes. For each album count N (default 10000):
#
#   Benchmarks/bench-floor.sh [--runs R] [--no-hugo] [--index-page-size K] [N...]
#
# Environment: GALLERY_BIN, BENCH_DIR, HUGO_BIN as for bench-build.sh.
#
# Generates the site with generate-site.py (the same site as bench-build.sh), then, R rounds each:
#   gallery  a cold full build (output and cache deleted first), under /usr/bin/time
#   hugo     a cold full build of the equivalent site (skipped with --no-hugo)
#   parse    floor.c: libxml2's SAX2 parser with gallery's options and no callbacks, over every
#            HTML page gallery wrote (gallery must parse each page to validate it)
#   write    floor.c: the same output files written into a new tree on tmpfs (one mkdir per
#            folder, open, write, close per file)
# Each file is read just before it is parsed or written, outside the timing, so its bytes are in
# the cache as a freshly rendered page's are. parse and write are CPU seconds on one thread. Their sum divided by the core count is the floor:
# the wall time of a build that did nothing but parse and write, perfectly spread over every
# core, with no rendering, loading, thumbnails, process start or anything else. hugo/floor is the
# best ratio against Hugo that such a build could reach on this machine. Prints a table of
# medians and writes Benchmarks/results/floor-<date>.json.
#
# --index-page-size K sets [carousel] index_page_size in the gallery site (the generated one
# carries the whole strip on the index, as the Hugo site does); it implies --no-hugo, since the
# Hugo site would no longer be the same site. The 100k goal of issue 5 is measured with
# `--index-page-size 300 100000`, gallery's default paging.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

runs=3
hugo=1
page_size=
sizes=()
while (($#)); do
    case "$1" in
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --no-hugo) hugo=0; shift ;;
        --index-page-size) page_size=${2:?--index-page-size needs a number}; hugo=0; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
        -*) echo "bench-floor.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
        *) [[ $1 =~ ^[1-9][0-9]*$ ]] || { echo "bench-floor.sh: N must be a positive whole number, not '$1'" >&2; exit 2; }
           sizes+=("$1"); shift ;;
    esac
done
((${#sizes[@]})) || sizes=(10000)
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench-floor.sh: --runs must be a positive whole number" >&2; exit 2; }
[[ -z $page_size || $page_size =~ ^[1-9][0-9]*$ ]] || { echo "bench-floor.sh: --index-page-size must be a positive whole number" >&2; exit 2; }

gallery_bin=${GALLERY_BIN:-$root/.build/release/gallery}
[[ $gallery_bin == /* ]] || gallery_bin="$PWD/$gallery_bin"
hugo_bin=${HUGO_BIN:-hugo}
bench_dir=${BENCH_DIR:-/dev/shm/gallery-bench}
[[ -x $gallery_bin ]] || { echo "bench-floor.sh: no gallery binary at $gallery_bin; build it with (cd '$root' && swift build -c release)" >&2; exit 1; }
tools=(python3 gcc xml2-config)
((hugo)) && tools+=("$hugo_bin")
for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null || { echo "bench-floor.sh: $tool is not installed" >&2; exit 1; }
done
if ! /usr/bin/time -v true >/dev/null 2>&1; then
    echo "bench-floor.sh: installing GNU time (Debian package 'time')" >&2
    if ((EUID == 0)); then apt-get install -y time >&2; else sudo apt-get install -y time >&2; fi
fi
case "$bench_dir" in
    /dev/shm/*) ;;
    *) echo "bench-floor.sh: warning: BENCH_DIR=$bench_dir is not under /dev/shm; disk I/O will be part of the times" >&2 ;;
esac

mkdir -p "$bench_dir" "$here/results"
cp "$gallery_bin" "$bench_dir/gallery-under-test"
gallery_snapshot="$bench_dir/gallery-under-test"
floor="$bench_dir/floor"
gcc -O2 -Wall -o "$floor" "$here/floor.c" $(xml2-config --cflags --libs)
# gallery's libxml2 options (XMLDocument.options): NONET | NOERROR | NOWARNING | COMPACT | BIG_LINES.
options=$((2048 | 32 | 64 | 65536 | 4194304))
export HUGO_CACHEDIR="$bench_dir/hugo-cache"
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
result_json="$here/results/floor-$stamp.json"
measurements="$bench_dir/floor-measurements.jsonl"
: >"$measurements"

for n in "${sizes[@]}"; do
    dir="$bench_dir/$n"
    echo "== N=$n: generating the sites in $dir" >&2
    python3 "$here/generate-site.py" "$n" "$dir" >&2
    if [[ -n $page_size ]]; then
        sed -i "s/^index_page_size = .*/index_page_size = $page_size/" "$dir/gallery/gallery.toml"
    fi
    out="$dir/public-gallery"
    for ((r = 1; r <= runs; r++)); do
        echo "== N=$n: round $r of $runs" >&2
        rm -rf "$out" "$dir/gallery/.gallery-cache"
        /usr/bin/time -f '%e %U %S %M' -o "$dir/time.txt" "$gallery_snapshot" build -q --site "$dir/gallery" --output "$out"
        read -r wall user sys rss <"$dir/time.txt"
        echo "{\"n\": $n, \"step\": \"gallery\", \"wall_s\": $wall, \"cpu_s\": $(python3 -c "print($user + $sys)"), \"peak_rss_kb\": $rss}" >>"$measurements"
        if ((hugo)); then
            rm -rf "$dir/public-hugo" "$dir/hugo/resources" "$HUGO_CACHEDIR"
            /usr/bin/time -f '%e %U %S %M' -o "$dir/time.txt" "$hugo_bin" --quiet --source "$dir/hugo" --destination "$dir/public-hugo"
            read -r wall user sys rss <"$dir/time.txt"
            echo "{\"n\": $n, \"step\": \"hugo\", \"wall_s\": $wall, \"cpu_s\": $(python3 -c "print($user + $sys)"), \"peak_rss_kb\": $rss}" >>"$measurements"
        fi
        (cd "$out" && find . -type f -name '*.html' | sed 's|^\./||' | sort) >"$dir/pages.txt"
        (cd "$out" && find . -type f | sed 's|^\./||' | sort) >"$dir/files.txt"
        (cd "$out" && "$floor" parse "$options" <"$dir/pages.txt") | sed "s/^{/{\"n\": $n, /" >>"$measurements"
        rm -rf "$dir/floor-write"
        (cd "$out" && "$floor" write "$dir/floor-write" <"$dir/files.txt") | sed "s/^{/{\"n\": $n, /" >>"$measurements"
        rm -rf "$dir/floor-write"
    done
done

python3 - "$measurements" "$result_json" "$(nproc)" "$runs" "$(cd "$root" && git rev-parse --short HEAD)" "$page_size" <<'EOF'
import json, statistics, sys, os
path, result, cores, runs, commit, page_size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
rows = [json.loads(line) for line in open(path)]
report = {"benchmark": "floor", "cores": cores, "runs": runs, "gallery_commit": commit,
          "index_page_size": int(page_size) if page_size else None, "load_average": os.getloadavg(), "sizes": []}
print(f"{'N':>7} {'gallery wall':>12} {'gallery CPU':>11} {'parse CPU':>9} {'write CPU':>9} {'floor wall':>10} {'hugo wall':>9} {'hugo/gallery':>12} {'hugo/floor':>10} {'gallery/floor':>13}")
for n in sorted({row["n"] for row in rows}):
    def median(step, key):
        values = [row[key] for row in rows if row["n"] == n and row["step"] == step]
        return statistics.median(values) if values else None
    parse, write = median("parse", "cpu_s"), median("write", "cpu_s")
    floor_wall = (parse + write) / cores
    gallery, hugo = median("gallery", "wall_s"), median("hugo", "wall_s")
    entry = {"albums": n, "gallery_wall_s": gallery, "gallery_cpu_s": median("gallery", "cpu_s"),
             "gallery_peak_rss_mb": round(median("gallery", "peak_rss_kb") / 1024, 1),
             "parse_cpu_s": parse, "write_cpu_s": write, "floor_wall_s": round(floor_wall, 4),
             "html_bytes": median("parse", "bytes"), "output_bytes": median("write", "bytes"),
             "hugo_wall_s": hugo, "gallery_over_floor": round(gallery / floor_wall, 2)}
    if hugo:
        entry["hugo_over_gallery"] = round(hugo / gallery, 2)
        entry["hugo_over_floor"] = round(hugo / floor_wall, 2)
    report["sizes"].append(entry)
    dash = "-"
    print(f"{n:>7} {gallery:>11.2f}s {entry['gallery_cpu_s']:>10.2f}s {parse:>8.2f}s {write:>8.2f}s {floor_wall:>9.2f}s "
          f"{(f'{hugo:.2f}s' if hugo else dash):>9} {entry.get('hugo_over_gallery', dash):>12} {entry.get('hugo_over_floor', dash):>10} {entry['gallery_over_floor']:>13}")
json.dump(report, open(result, "w"), indent=1)
EOF
echo "results: $result_json" >&2
