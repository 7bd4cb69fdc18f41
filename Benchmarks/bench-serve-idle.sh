#!/usr/bin/env bash
# What `gallery serve` costs while nobody saves, and how soon a save is rebuilt, when the site
# folder holds many files: watching through the kernel's file events (the default on Linux)
# against polling (`--poll 250ms`, the interval polling used before events).
#
#   Benchmarks/bench-serve-idle.sh [--seconds S] [--edits E] [FILES]
#
# Environment:
#   GALLERY_BIN  the gallery binary (default: .build/release/gallery at the repo root)
#   BENCH_DIR    where the site goes (default: /dev/shm/gallery-bench/serve-idle)
#
# The site is generate-site.py's 1000 albums plus FILES (default 100000) small files in
# content/covers/: a catalogue with a cover per album has as many, and the watcher looks at every
# file below content/ whether an album uses it or not (the build does not make 100,000 thumbnails,
# which would measure libvips, not the watcher). For each mode the script starts the server, waits
# for its first build, reads the process's CPU time over S seconds (default 10) of idleness, then
# E times (default 5) retitles an album and times the save until the server prints that it
# rebuilt. Prints the idle CPU as a share of one core and the median save-to-rebuilt time, and
# writes Benchmarks/results/serve-idle-<date>.json.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

seconds=10
edits=5
files=100000
while (($#)); do
    case "$1" in
        --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
        --edits) edits=${2:?--edits needs a number}; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) files=$1; shift ;;
    esac
done
for number in "$seconds" "$edits" "$files"; do
    [[ $number =~ ^[0-9]+$ ]] || { echo "bench-serve-idle.sh: '$number' is not a whole number" >&2; exit 2; }
done
gallery_bin=${GALLERY_BIN:-$root/.build/release/gallery}
[[ $gallery_bin == /* ]] || gallery_bin="$PWD/$gallery_bin"
[[ -x $gallery_bin ]] || { echo "bench-serve-idle.sh: no gallery binary at $gallery_bin; build it (swift build -c release) or set GALLERY_BIN" >&2; exit 1; }
bench_dir=${BENCH_DIR:-/dev/shm/gallery-bench/serve-idle}
ticks=$(getconf CLK_TCK)

rm -rf "$bench_dir"
mkdir -p "$bench_dir" "$here/results"
python3 "$here/generate-site.py" 1000 "$bench_dir" >&2
site=$bench_dir/gallery
python3 - "$site/content/covers" "$files" <<'PY'
import os, sys
folder, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    with open(os.path.join(folder, f"extra-{i:06d}.svg"), "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
PY
results=$bench_dir/results.tsv
: >"$results"

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
built_lines() { grep -c '^built ' "$1" || true; }

measure() {  # $1 = label, then serve's extra arguments
    local label=$1; shift
    local log=$bench_dir/serve-$label.log
    "$gallery_bin" serve --site "$site" --port 0 "$@" >"$bench_dir/serve-$label.out" 2>"$log" &
    local pid=$!
    local waited=0
    until grep -q '^Serving ' "$bench_dir/serve-$label.out" 2>/dev/null; do
        sleep 0.2; waited=$((waited + 1))
        ((waited < 1500)) || { echo "bench-serve-idle.sh: the server did not start:" >&2; tail -5 "$log" >&2; kill "$pid"; exit 1; }
    done
    sleep 2
    local before after
    before=$(cpu_ticks "$pid")
    sleep "$seconds"
    after=$(cpu_ticks "$pid")
    printf '%s\tidle\t%s\n' "$label" "$(python3 -c "print(($after - $before) / $ticks / $seconds)")" >>"$results"
    for round in $(seq "$edits"); do
        local count start end
        count=$(built_lines "$log")
        start=$(date +%s%N)
        python3 - "$site/content/albums.json" "$round" <<'PY'
import json, os, sys
path, round_ = sys.argv[1], int(sys.argv[2])
archive = json.load(open(path, encoding="utf-8"))
archive["albums"][500]["title"] = f"Edited Title {round_}"
tmp = os.path.join(os.path.dirname(path), ".albums.json.tmp")
with open(tmp, "w", encoding="utf-8") as f:
    f.write(json.dumps(archive, ensure_ascii=False, indent=2) + "\n")
os.replace(tmp, path)
PY
        until (($(built_lines "$log") > count)); do sleep 0.005; done
        end=$(date +%s%N)
        printf '%s\tsave-to-rebuilt\t%s\n' "$label" "$(python3 -c "print(($end - $start) / 1e9)")" >>"$results"
        sleep 1
    done
    kill -INT "$pid"
    wait "$pid" || true
}

echo "== $files extra files: file events" >&2
measure events
echo "== $files extra files: --poll 250ms" >&2
measure poll-250ms --poll 250ms

python3 - "$results" "$here/results" "$files" "$seconds" <<'PY'
import collections, datetime, json, os, statistics, sys
path, out, files, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
values = collections.defaultdict(list)
for line in open(path):
    label, kind, value = line.split("\t")
    values[(label, kind)].append(float(value))
labels = ["events", "poll-250ms"]
print(f"{files} extra files in content/covers/, idle over {seconds} s, load average {os.getloadavg()[0]:.2f}")
print(f"{'watching':<12} {'idle CPU (share of a core)':>28} {'save to rebuilt, median s':>26}")
summary = {}
for label in labels:
    idle = values[(label, "idle")][0]
    latency = statistics.median(values[(label, "save-to-rebuilt")])
    summary[label] = {"idle_cpu": idle, "save_to_rebuilt_s": latency, "save_to_rebuilt_all": values[(label, "save-to-rebuilt")]}
    print(f"{label:<12} {idle:>28.3f} {latency:>26.3f}")
stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
target = os.path.join(out, f"serve-idle-{stamp}.json")
with open(target, "w") as f:
    json.dump({"files": files, "idle_seconds": seconds, "load_average": os.getloadavg()[0], "results": summary}, f, indent=2)
print(f"wrote {target}")
PY
