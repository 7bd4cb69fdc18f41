#!/usr/bin/env bash
# Cold builds of one site by two (or more) gallery binaries, alternating, for telling a change of
# a few percent from a shared machine's drift.
#
# Usage: bench-build-ab.sh [--rounds R] SITE OLD NEW [MORE...]
#
#   SITE    a site folder (one of generate-site.py's `gallery/` folders); it is built into
#           SITE/../public-ab, and SITE/.gallery-cache is deleted before every build
#   OLD     the binary the others are compared with
#
# Each round builds the site once with each binary, in the order given. The machine's speed
# drifts by 10% over minutes here, more than the changes it is used to weigh, so besides each
# binary's medians the script prints the median of its per-round ratios to OLD, whose rounds ran
# side by side. Wall and CPU (user + system) times come from /usr/bin/time.
set -euo pipefail

rounds=6
if [[ ${1:-} == --rounds ]]; then rounds=$2; shift 2; fi
if (( $# < 3 )); then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
site=$1; shift
[[ -f $site/content/albums.json ]] || { echo "bench-build-ab.sh: no content/albums.json in $site" >&2; exit 1; }
for binary in "$@"; do [[ -x $binary ]] || { echo "bench-build-ab.sh: $binary is not an executable" >&2; exit 1; }; done
output=$(dirname "$site")/public-ab
times=$(mktemp)
trap 'rm -f "$times" "$times.cpu"; rm -rf "$output"' EXIT

for round in $(seq "$rounds"); do
    for binary in "$@"; do
        rm -rf "$output" "$site/.gallery-cache"
        # Wall time from the nanosecond clock (time's %e has 10 ms steps, a tenth of a change
        # worth weighing at 10k albums); CPU from time's %U and %S.
        start=$(date +%s%N)
        /usr/bin/time -f "%U %S" -o "$times.cpu" "$binary" build --site "$site" --output "$output" -q
        end=$(date +%s%N)
        echo "$round $binary $(( (end - start) / 1000 )) $(cat "$times.cpu")" >>"$times"
    done
done

python3 - "$times" "$@" <<'PY'
import collections, statistics, sys
times, binaries = sys.argv[1], sys.argv[2:]
runs = collections.defaultdict(dict)
for line in open(times):
    round_, binary, wall, user, system = line.split()
    runs[binary][round_] = (int(wall) / 1e6, float(user) + float(system))
old = binaries[0]
for binary in binaries:
    rounds = runs[binary]
    line = (f"{binary}: wall median {statistics.median(w for w, _ in rounds.values()):.3f} s "
            f"(min {min(w for w, _ in rounds.values()):.3f}), CPU median {statistics.median(c for _, c in rounds.values()):.3f} s")
    if binary != old:
        wall = statistics.median(rounds[r][0] / runs[old][r][0] for r in rounds)
        cpu = statistics.median(rounds[r][1] / runs[old][r][1] for r in rounds)
        line += f"; per-round ratio to {old}: wall {wall:.3f}, CPU {cpu:.3f}"
    print(line)
PY
