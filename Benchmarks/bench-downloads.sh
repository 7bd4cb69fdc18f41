#!/usr/bin/env bash
# Times downloading N covers (default 1000) from a loopback server: a cold `gallery build` of a
# site whose albums all point at the server, against `curl --parallel` fetching the same URLs,
# side by side in one run.
#
#   Benchmarks/bench-downloads.sh [--runs R] [--count N] [--parallel "4 8"] [--latency MS]
#                                 [--client-cpu C] [--curl-only]
#
# Environment:
#   GALLERY_BIN  the gallery binary (default: .build/release/gallery at the repo root)
#   GALLERY_BASELINE  another gallery binary, timed side by side as "baseline" (optional)
#   BENCH_DIR    where the site and downloads go (default: /dev/shm/gallery-bench/downloads)
#
# cover-server.py serves N deterministic PNGs of 100-200 KB from memory (about 150 MB in all).
# Each round runs every tool once, in alternating order, after deleting its downloads (curl's
# output folder; gallery's output and .gallery-cache/), so every timed run is cold. curl runs
# once per --parallel value (default 4 and 8: gallery's defaults are 8 downloads at once but 4 per
# host, and here every cover is on one host), and once more at the first value followed by
# `openssl dgst -sha256` of every file it wrote ("curl-4+sha256"): a content-addressed cache, as
# gallery's is, must at least hash what it stores. gallery runs `build --verbose`; its "fetch covers"
# step time is read from the output as well as the whole build's. The server counts requests,
# so the script checks that each cold gallery build made N of them and that a warm build made
# none. --latency MS makes the server wait MS ms before each answer, as a distant host would;
# then the whole cold build, downloads and thumbnails together, is what to compare (with
# GALLERY_BASELINE, two gallery binaries side by side). --client-cpu C pins curl and gallery to
# CPU C and the server to the other CPUs (taskset), as on a one-core CI runner fetching from a
# host of its own. Prints a table of medians and writes
# Benchmarks/results/downloads-<date>.json.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

runs=5
count=1000
parallel="4 8"
latency=0
client_cpu=""
curl_only=0
while (($#)); do
    case "$1" in
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --count) count=${2:?--count needs a number}; shift 2 ;;
        --parallel) parallel=${2:?--parallel needs numbers}; shift 2 ;;
        --latency) latency=${2:?--latency needs milliseconds}; shift 2 ;;
        --client-cpu) client_cpu=${2:?--client-cpu needs a CPU number}; shift 2 ;;
        --curl-only) curl_only=1; shift ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "bench-downloads.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
    esac
done
[[ $latency =~ ^[0-9]+$ ]] || { echo "bench-downloads.sh: --latency must be whole milliseconds" >&2; exit 2; }
# The clients' CPU, and the server's: every other CPU.
client=()
server=()
if [[ -n $client_cpu ]]; then
    cpus=$(nproc)
    [[ $client_cpu =~ ^[0-9]+$ ]] && ((client_cpu < cpus && cpus > 1)) \
        || { echo "bench-downloads.sh: --client-cpu must be a CPU number below $cpus, on a machine of two or more" >&2; exit 2; }
    command -v taskset >/dev/null || { echo "bench-downloads.sh: taskset (util-linux) is not installed" >&2; exit 1; }
    others=$(seq 0 $((cpus - 1)) | grep -vx "$client_cpu" | paste -sd,)
    client=(taskset -c "$client_cpu")
    server=(taskset -c "$others")
fi
for number in "$runs" "$count" $parallel; do
    [[ $number =~ ^[1-9][0-9]*$ ]] || { echo "bench-downloads.sh: '$number' is not a positive whole number" >&2; exit 2; }
done

gallery_bin=${GALLERY_BIN:-$root/.build/release/gallery}
[[ $gallery_bin == /* ]] || gallery_bin="$PWD/$gallery_bin"
baseline_bin=${GALLERY_BASELINE:-}
if [[ -n $baseline_bin ]]; then
    [[ $baseline_bin == /* ]] || baseline_bin="$PWD/$baseline_bin"
    [[ -x $baseline_bin ]] || { echo "bench-downloads.sh: GALLERY_BASELINE=$baseline_bin is not an executable" >&2; exit 1; }
fi
bench_dir=${BENCH_DIR:-/dev/shm/gallery-bench/downloads}
for tool in curl python3 openssl; do
    command -v "$tool" >/dev/null || { echo "bench-downloads.sh: $tool is not installed" >&2; exit 1; }
done
if ((!curl_only)) && [[ ! -x $gallery_bin ]]; then
    echo "bench-downloads.sh: no gallery binary at $gallery_bin; build it (swift build -c release)," >&2
    echo "  point GALLERY_BIN at one, or pass --curl-only" >&2
    exit 1
fi

rm -rf "$bench_dir"
mkdir -p "$bench_dir/site/content"
site=$bench_dir/site

# The server, on a free port; stopped when the script ends.
"${server[@]}" python3 "$here/cover-server.py" --count "$count" --latency "$latency" >"$bench_dir/port" &
server_pid=$!
trap 'kill $server_pid 2>/dev/null || true' EXIT
for _ in $(seq 600); do [[ -s $bench_dir/port ]] && break; sleep 0.1; done
port=$(head -1 "$bench_dir/port")
[[ $port =~ ^[0-9]+$ ]] || { echo "bench-downloads.sh: the cover server did not start" >&2; exit 1; }
base="http://127.0.0.1:$port"
requests() { curl -s "$base/stats" | python3 -c 'import json, sys; print(json.load(sys.stdin)["requests"])'; }

# The site: N albums, one cover each, all on the loopback server; and curl's list of the same URLs.
python3 - "$count" "$base" "$site" "$bench_dir" <<'EOF'
import json, os, sys
count, base, site, bench = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
albums = [{"title": f"Cover {i}", "artist": "Loopback", "genre": "Benchmark", "year": 2000 + i % 25,
           "cover_url": f"{base}/covers/{i}.png", "slug": f"cover-{i}"} for i in range(count)]
with open(os.path.join(site, "content", "albums.json"), "w") as file:
    json.dump({"version": 1, "albums": albums}, file, indent=1)
with open(os.path.join(bench, "curl.config"), "w") as file:
    for i in range(count):
        file.write(f'url = "{base}/covers/{i}.png"\noutput = "{bench}/curl-out/{i}.png"\n')
EOF

now() { date +%s%N; }
results=$bench_dir/results.tsv
: >"$results"

run_curl() {  # $1 = parallel
    rm -rf "$bench_dir/curl-out"
    local start end
    start=$(now)
    # curl 7.88 draws its parallel progress meter despite --silent, so its stderr goes to a log.
    "${client[@]}" curl --parallel --parallel-max "$1" --create-dirs --fail --silent --show-error \
        --config "$bench_dir/curl.config" 2>"$bench_dir/curl.log" \
        || { echo "bench-downloads.sh: curl failed:" >&2; tail -5 "$bench_dir/curl.log" >&2; exit 1; }
    end=$(now)
    local files
    files=$(find "$bench_dir/curl-out" -name '*.png' | wc -l)
    ((files == count)) || { echo "bench-downloads.sh: curl fetched $files of $count covers" >&2; exit 1; }
    printf 'curl-%s\t%s\t\n' "$1" "$(( (end - start) / 1000 ))" >>"$results"
}

# curl, then SHA-256 of every file it wrote: the least a downloader that names what it stores by
# content hash, as gallery's cache does, must do. Timed as one (the hash is OpenSSL's, which uses
# the CPU's SHA extensions where it has them, as gallery's does).
run_curl_hashed() {  # $1 = parallel
    local start end
    start=$(now)
    run_curl "$1"
    find "$bench_dir/curl-out" -name '*.png' -print0 | "${client[@]}" xargs -0 openssl dgst -sha256 -r >"$bench_dir/curl.sums"
    end=$(now)
    sed -i '$d' "$results"  # run_curl's own line: this run is timed with the hash
    local sums
    sums=$(wc -l <"$bench_dir/curl.sums")
    ((sums == count)) || { echo "bench-downloads.sh: openssl hashed $sums of $count covers" >&2; exit 1; }
    printf 'curl-%s+sha256\t%s\t\n' "$1" "$(( (end - start) / 1000 ))" >>"$results"
}

run_gallery() {  # $1 = "cold" or "warm"; $2 = the binary (default gallery's), $3 its name
    local bin=${2:-$gallery_bin} name=${3:-gallery}
    [[ $1 == warm ]] || rm -rf "$site/.gallery-cache" "$bench_dir/public"
    local before start end after fetch
    before=$(requests)
    start=$(now)
    "${client[@]}" "$bin" build --site "$site" --output "$bench_dir/public" --verbose >"$bench_dir/gallery.log" 2>&1 \
        || { echo "bench-downloads.sh: gallery build failed:" >&2; tail -20 "$bench_dir/gallery.log" >&2; exit 1; }
    end=$(now)
    after=$(requests)
    fetch=$(sed -n 's/^ *fetch covers took \([0-9.]*\) s$/\1/p' "$bench_dir/gallery.log" | head -1)
    if [[ $1 == cold ]] && ((after - before != count)); then
        echo "bench-downloads.sh: a cold gallery build made $((after - before)) requests, not $count;" >&2
        echo "  does this gallery fetch remote covers yet? (pass --curl-only to time curl alone)" >&2
        exit 1
    fi
    if [[ $1 == warm ]] && ((after != before)); then
        echo "bench-downloads.sh: a warm gallery build made $((after - before)) requests, not 0" >&2
        exit 1
    fi
    printf '%s-%s\t%s\t%s\n' "$name" "$1" "$(( (end - start) / 1000 ))" "$fetch" >>"$results"
}

run_tool() {
    case $1 in
        curl:*) run_curl "${1#curl:}" ;;
        curlsha:*) run_curl_hashed "${1#curlsha:}" ;;
        baseline:cold) run_gallery cold "$baseline_bin" baseline ;;
        *) run_gallery cold ;;
    esac
}

tools=()
for p in $parallel; do tools+=("curl:$p"); done
tools+=("curlsha:${parallel%% *}")
((curl_only)) || tools+=("gallery:cold")
((curl_only)) || [[ -z $baseline_bin ]] || tools+=("baseline:cold")
# One untimed warm-up of each (the server's page cache, curl's and gallery's first start).
for tool in "${tools[@]}"; do
    run_tool "$tool"
done
: >"$results"
for round in $(seq "$runs"); do
    order=("${tools[@]}")
    if ((round % 2 == 0)); then  # reverse the order in even rounds
        reversed=(); for ((i = ${#order[@]} - 1; i >= 0; i--)); do reversed+=("${order[i]}"); done
        order=("${reversed[@]}")
    fi
    for tool in "${order[@]}"; do
        run_tool "$tool"
    done
done
((curl_only)) || for _ in $(seq "$runs"); do run_gallery warm; done

mkdir -p "$here/results"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 - "$results" "$count" "$runs" "$here/results/downloads-$stamp.json" "$commit" "$(curl --version | head -1)" "$latency" "${client_cpu:-}" <<'EOF'
import json, os, statistics, sys
path, count, runs, output, commit, curl, latency = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], int(sys.argv[7])
client_cpu = int(sys.argv[8]) if sys.argv[8] else None
times, fetch = {}, {}
for line in open(path):
    tool, micros, step = (line.rstrip("\n").split("\t") + [""])[:3]
    times.setdefault(tool, []).append(int(micros) / 1e6)
    if step:
        fetch.setdefault(tool, []).append(float(step))
medians = {tool: statistics.median(values) for tool, values in times.items()}
megabytes = count * 0.15  # covers average about 150 KB
pinned = f", clients pinned to CPU {client_cpu}" if client_cpu is not None else ""
print(f"{count} covers, {runs} runs, latency {latency} ms{pinned}, load average {os.getloadavg()[0]:.2f}")
print(f"{'tool':<16}{'median s':>10}{'covers/s':>10}{'fetch step s':>14}")
for tool in sorted(medians):
    step = f"{statistics.median(fetch[tool]):.3f}" if tool in fetch else ""
    print(f"{tool:<16}{medians[tool]:>10.3f}{count / medians[tool]:>10.0f}{step:>14}")
ratios = {}
if "gallery-cold" in fetch:
    gallery = statistics.median(fetch["gallery-cold"])
    for tool in sorted(medians):
        if tool.startswith("curl-"):
            ratios[f"{tool}/gallery-fetch"] = medians[tool] / gallery
            print(f"throughput ratio gallery/{tool} (fetch step): {medians[tool] / gallery:.2f}")
            if tool.endswith("+sha256"):
                print("  (curl, then SHA-256 of its files: what a downloader that names its files by content hash must do at least)")
if "baseline-cold" in medians:
    ratios["baseline/gallery-build"] = medians["baseline-cold"] / medians["gallery-cold"]
    print(f"whole cold build, baseline/gallery: {ratios['baseline/gallery-build']:.2f}")
json.dump({"count": count, "runs": runs, "latency_ms": latency, "client_cpu": client_cpu, "seconds": times, "fetch_step_seconds": fetch,
           "medians": medians, "ratios": ratios, "commit": commit, "curl": curl,
           "load_average": os.getloadavg()}, open(output, "w"), indent=1, sort_keys=True)
print(f"wrote {output}")
EOF
