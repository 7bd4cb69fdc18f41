#!/usr/bin/env bash
# One-album edits rebuilt by two (or more) gallery binaries side by side: for telling whether a
# change made rebuilds faster, when the machine's noise is larger than the change.
#
#   Benchmarks/bench-edit-ab.sh [--rounds R] [--albums N] [--index-page-size K] [--move] BINARY BINARY...
#
# Environment:
#   BENCH_DIR  where the sites go (default: /dev/shm/gallery-bench/edit-ab)
#
# generate-site.py writes an N-album site (default 10000); each binary gets a copy of its own
# (site, output and cache), so no binary reads another's manifest, and builds it once untimed.
# Then each of R rounds (default 16) retitles album N/2 in every copy and rebuilds it with its
# binary, in alternating order, under /usr/bin/time. Prints, per binary, the medians of the wall
# time, the CPU time (user + system) and the load, render and write steps from the JSON summary,
# and writes Benchmarks/results/edit-ab-<date>.json. Build the binaries to compare first, e.g.
# `git stash; swift build -c release; cp .build/release/gallery /dev/shm/gallery-old; git stash pop`.
# The generated site carries the whole strip on its index page (as the Hugo site of the other
# benchmarks does); --index-page-size K sets [carousel] index_page_size (300 is the default).
# --move also gives the album a new slug each round, as retitling one whose slug comes from its
# title does: its page moves, and the build searches the pages in place for its old address.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

rounds=16
albums=10000
page_size=
move=0
binaries=()
while (($#)); do
    case "$1" in
        --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
        --albums) albums=${2:?--albums needs a number}; shift 2 ;;
        --index-page-size) page_size=${2:?--index-page-size needs a number}; shift 2 ;;
        --move) move=1; shift ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) binaries+=("$1"); shift ;;
    esac
done
for number in "$rounds" "$albums" ${page_size:+"$page_size"}; do
    [[ $number =~ ^[1-9][0-9]*$ ]] || { echo "bench-edit-ab.sh: '$number' is not a positive whole number" >&2; exit 2; }
done
((${#binaries[@]} >= 2)) || { echo "bench-edit-ab.sh: give two or more gallery binaries to compare" >&2; exit 2; }
for binary in "${binaries[@]}"; do
    [[ -x $binary ]] || { echo "bench-edit-ab.sh: $binary is not an executable" >&2; exit 1; }
done
[[ -x /usr/bin/time ]] || { echo "bench-edit-ab.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
bench_dir=${BENCH_DIR:-/dev/shm/gallery-bench/edit-ab}

rm -rf "$bench_dir"
mkdir -p "$bench_dir" "$here/results"
python3 "$here/generate-site.py" "$albums" "$bench_dir/generated" >&2
[[ -z $page_size ]] || sed -i "s/^index_page_size = .*/index_page_size = $page_size/" "$bench_dir/generated/gallery/gallery.toml"
for i in "${!binaries[@]}"; do
    cp -r "$bench_dir/generated/gallery" "$bench_dir/site$i"
    "${binaries[$i]}" build --site "$bench_dir/site$i" --output "$bench_dir/out$i" --quiet >/dev/null
done
results=$bench_dir/results.tsv
: >"$results"
for round in $(seq "$rounds"); do
    order=$(seq 0 $((${#binaries[@]} - 1)))
    ((round % 2)) || order=$(echo "$order" | tac)
    for i in $order; do
        python3 - "$bench_dir/site$i/content/albums.json" "$round" "$move" <<'PY'
import json, os, sys
path, round_, move = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
archive = json.load(open(path, encoding="utf-8"))
archive["albums"][len(archive["albums"]) // 2]["title"] = f"Edited Title {round_}"
if move:
    archive["albums"][len(archive["albums"]) // 2]["slug"] = f"edited-title-{round_}"
tmp = path + ".tmp"
with open(tmp, "w", encoding="utf-8") as f:
    f.write(json.dumps(archive, ensure_ascii=False, indent=2) + "\n")
os.replace(tmp, path)
PY
        # Wall time to the microsecond (time's %e has hundredths only: a 10 ms step, as large as
        # the changes this script is for); time's user and system time for the CPU.
        start=$EPOCHREALTIME
        /usr/bin/time -f "%U %S" -o "$bench_dir/time$i" "${binaries[$i]}" build --site "$bench_dir/site$i" --output "$bench_dir/out$i" --log-format json >"$bench_dir/log$i" 2>&1 \
            || { echo "bench-edit-ab.sh: ${binaries[$i]} failed:" >&2; tail -5 "$bench_dir/log$i" >&2; exit 1; }
        end=$EPOCHREALTIME
        wall=$(python3 -c "print(f'{$end - $start:.6f}')")
        printf '%s\t%s %s\t%s\n' "$i" "$wall" "$(cat "$bench_dir/time$i")" "$(tail -1 "$bench_dir/log$i")" >>"$results"
    done
done

python3 - "$results" "$here/results" "$albums" "$rounds" "${page_size:-whole strip}" "$move" "${binaries[@]}" <<'PY'
import collections, datetime, json, os, statistics, sys
path, out, albums, rounds, page_size, binaries = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[7:]
edit = "retitled and moved (new slug)" if sys.argv[6] == "1" else "retitled"
runs = collections.defaultdict(list)
for line in open(path):
    index, times, summary = line.rstrip("\n").split("\t")
    wall, user, system = map(float, times.split())
    summary = json.loads(summary)
    steps = summary["timings"]
    covers = steps.get("fetch covers", 0) + steps.get("make thumbnails", 0)
    runs[int(index)].append({"wall": wall, "cpu": user + system, "load": steps["load"], "covers": covers, "render": steps["render"], "write": steps["write"], "written": summary["files"]["written"]})
print(f"{albums} albums (index page size: {page_size}), one album {edit}, {rounds} rounds, load average {os.getloadavg()[0]:.2f}; medians in seconds")
print(f"{'binary':<40} {'wall':>7} {'cpu':>7} {'load':>7} {'covers':>7} {'render':>7} {'write':>7} {'written':>8}")
report = []
for index, binary in enumerate(binaries):
    medians = {key: statistics.median(run[key] for run in runs[index]) for key in ("wall", "cpu", "load", "covers", "render", "write", "written")}
    report.append({"binary": binary, "medians": medians, "runs": runs[index]})
    print(f"{binary[-40:]:<40} {medians['wall']:>7.4f} {medians['cpu']:>7.3f} {medians['load']:>7.4f} {medians['covers']:>7.4f} {medians['render']:>7.4f} {medians['write']:>7.4f} {medians['written']:>8.0f}")
stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
target = os.path.join(out, f"edit-ab-{stamp}.json")
with open(target, "w") as f:
    json.dump({"albums": albums, "index_page_size": page_size, "edit": edit, "rounds": rounds, "load_average": os.getloadavg()[0], "results": report}, f, indent=2)
print(f"wrote {target}")
PY
