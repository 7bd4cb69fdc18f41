#!/usr/bin/env bash
# A site with a large file in static/ (a video, a download), built by two (or more) gallery
# binaries side by side: the peak memory and time of a cold build, for telling whether static
# files are held in memory.
#
#   Benchmarks/bench-static.sh [--size-mb M] [--runs R] BINARY BINARY...
#
# Environment:
#   BENCH_DIR  where the site goes (default: /dev/shm/gallery-bench/static), on tmpfs
#
# Makes a starter site (`gallery init`) with static/video/trailer.bin of M MiB of random bytes
# (default 400), then builds it cold (output and cache removed first) R times (default 3) with
# each binary, in alternating order, under /usr/bin/time. Prints, per binary, the medians of
# the wall time and the peak resident memory, and writes Benchmarks/results/static-<date>.json.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
size=400
runs=3
binaries=()
while (($#)); do
  case "$1" in
    --size-mb) size=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) binaries+=("$1"); shift ;;
  esac
done
((${#binaries[@]} >= 1)) || { echo "usage: $0 [--size-mb M] [--runs R] BINARY BINARY..." >&2; exit 64; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

dir=${BENCH_DIR:-/dev/shm/gallery-bench/static}
rm -rf "$dir" && mkdir -p "$dir"
"${binaries[0]}" init "$dir/site" >/dev/null
mkdir -p "$dir/site/static/video"
head -c "$((size * 1024 * 1024))" /dev/urandom > "$dir/site/static/video/trailer.bin"

results=$dir/times.tsv
: > "$results"
for ((round = 1; round <= runs; round++)); do
  for binary in "${binaries[@]}"; do
    rm -rf "$dir/site/public" "$dir/site/.gallery-cache"
    /usr/bin/time -f "%e %M" -o "$dir/one" "$binary" build -q --site "$dir/site"
    cmp -s "$dir/site/static/video/trailer.bin" "$dir/site/public/video/trailer.bin" || { echo "$binary: the file was not published as it is" >&2; exit 1; }
    printf '%s\t%s\n' "$binary" "$(cat "$dir/one")" >> "$results"
  done
done

stamp=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$here/results"
python3 - "$results" "$size" "$runs" "$here/results/static-$stamp.json" <<'PY'
import json, statistics, sys
rows, size, runs, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
by = {}
for line in open(rows):
    binary, rest = line.rstrip("\n").split("\t")
    seconds, kb = rest.split()
    by.setdefault(binary, []).append((float(seconds), int(kb)))
report = {"size_mb": size, "runs": runs, "binaries": {}}
for binary, values in by.items():
    wall = statistics.median(v[0] for v in values)
    peak = statistics.median(v[1] for v in values) / 1024
    report["binaries"][binary] = {"wall_s": wall, "peak_mb": round(peak, 1), "runs": values}
    print(f"{binary}: {wall:.2f} s, peak {peak:.0f} MB (median of {len(values)})")
json.dump(report, open(out, "w"), indent=2)
print(f"wrote {out}")
PY
