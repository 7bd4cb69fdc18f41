#!/usr/bin/env bash
# Times rebuilds of an N-album site (default 10000): a no-op rebuild (nothing changed) and a
# one-album edit (a title in the middle of the archive), gallery against Hugo on the equivalent
# site, side by side in one run.
#
#   Benchmarks/bench-incremental.sh [--runs R] [--index-page-size K] [N]
#
# Environment:
#   GALLERY_BIN  the gallery binary (default: .build/release/gallery at the repo root)
#   HUGO_BIN     the Hugo binary (default: hugo on PATH)
#   BENCH_DIR    where the sites go (default: /dev/shm/gallery-bench/incremental)
#
# generate-site.py writes both sites. After one untimed full build of each, every round times,
# in alternating order: a no-op rebuild of each, then an edit of album N/2's title (in
# content/albums.json for gallery, in its content/albums/<slug>.md for Hugo; the title alternates
# between two values so every round is a real change) and a rebuild of each. Hugo has no
# persistent incremental build from the command line, so its rebuilds are full builds into the
# existing output (as a CI job would run it). gallery's JSON summary says how many files each
# rebuild wrote; the script checks a no-op wrote none. gallery's no-op stops at the manifest's
# stamp; "gallery-noop-touched" times the full no-op that runs when the covers' times changed
# (as in a fresh CI checkout), after touching them. Prints medians and ratios (hugo/gallery)
# and writes Benchmarks/results/incremental-<date>.json.
#
# Both sites carry the whole strip on their index page; --index-page-size K sets gallery's
# [carousel] index_page_size instead (300 is the default a site gets), so its index is split
# into pages of K tiles. The Hugo site keeps its one index page: its rebuild is a full build
# either way.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

runs=5
n=10000
page_size=
while (($#)); do
    case "$1" in
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --index-page-size) page_size=${2:?--index-page-size needs a number}; shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) n=$1; shift ;;
    esac
done
for number in "$runs" "$n" ${page_size:+"$page_size"}; do
    [[ $number =~ ^[1-9][0-9]*$ ]] || { echo "bench-incremental.sh: '$number' is not a positive whole number" >&2; exit 2; }
done
gallery_bin=${GALLERY_BIN:-$root/.build/release/gallery}
[[ $gallery_bin == /* ]] || gallery_bin="$PWD/$gallery_bin"
hugo_bin=${HUGO_BIN:-hugo}
bench_dir=${BENCH_DIR:-/dev/shm/gallery-bench/incremental}
[[ -x $gallery_bin ]] || { echo "bench-incremental.sh: no gallery binary at $gallery_bin; build it (swift build -c release) or set GALLERY_BIN" >&2; exit 1; }
command -v "$hugo_bin" >/dev/null || { echo "bench-incremental.sh: Hugo is not installed (apt-get install hugo) or set HUGO_BIN" >&2; exit 1; }

rm -rf "$bench_dir"
mkdir -p "$bench_dir" "$here/results"
python3 "$here/generate-site.py" "$n" "$bench_dir" >&2
[[ -z $page_size ]] || sed -i "s/^index_page_size = .*/index_page_size = $page_size/" "$bench_dir/gallery/gallery.toml"
export HUGO_CACHEDIR="$bench_dir/hugo-cache"
results=$bench_dir/results.tsv
: >"$results"
now() { date +%s%N; }

gallery() {  # $1 = label
    local start end written
    start=$(now)
    "$gallery_bin" build --site "$bench_dir/gallery" --output "$bench_dir/public-gallery" --log-format json >"$bench_dir/gallery.log" 2>&1 \
        || { echo "bench-incremental.sh: gallery build failed:" >&2; tail -5 "$bench_dir/gallery.log" >&2; exit 1; }
    end=$(now)
    written=$(tail -1 "$bench_dir/gallery.log" | python3 -c 'import json, sys; print(json.load(sys.stdin)["files"]["written"])')
    printf 'gallery-%s\t%s\t%s\n' "$1" "$(( (end - start) / 1000 ))" "$written" >>"$results"
    if [[ $1 == noop* && $written != 0 ]]; then echo "bench-incremental.sh: a no-op gallery rebuild wrote $written files" >&2; exit 1; fi
}

hugo_build() {  # $1 = label
    local start end
    start=$(now)
    "$hugo_bin" --quiet --source "$bench_dir/hugo" --destination "$bench_dir/public-hugo" >"$bench_dir/hugo.log" 2>&1 \
        || { echo "bench-incremental.sh: hugo failed:" >&2; tail -5 "$bench_dir/hugo.log" >&2; exit 1; }
    end=$(now)
    printf 'hugo-%s\t%s\t\n' "$1" "$(( (end - start) / 1000 ))" >>"$results"
}

edit() {  # $1 = round: retitle album N/2 in both sites
    python3 - "$bench_dir" "$n" "$1" <<'PY'
import json, os, re, sys
bench, n, round_ = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
title = f"Edited Title {round_ % 2}"
path = os.path.join(bench, "gallery", "content", "albums.json")
archive = json.load(open(path, encoding="utf-8"))
album = archive["albums"][n // 2]
album["title"] = title
tmp = path + ".tmp"
with open(tmp, "w", encoding="utf-8") as f:
    f.write(json.dumps(archive, ensure_ascii=False, indent=2) + "\n")
os.replace(tmp, path)
md = os.path.join(bench, "hugo", "content", "albums", album["slug"] + ".md")
text = open(md, encoding="utf-8").read()
open(md, "w", encoding="utf-8").write(re.sub(r'^title = .*$', f'title = "{title}"', text, count=1, flags=re.M))
PY
}

echo "== $n albums: full build of each (untimed)" >&2
gallery full; hugo_build full
: >"$results"
for round in $(seq "$runs"); do
    echo "== round $round of $runs" >&2
    if ((round % 2)); then gallery noop; hugo_build noop; else hugo_build noop; gallery noop; fi
    # A fresh checkout's files have new times: the stamp does not hold, and the full no-op runs.
    touch "$bench_dir"/gallery/content/covers/*
    gallery noop-touched
    edit "$round"
    if ((round % 2)); then gallery edit; hugo_build edit; else hugo_build edit; gallery edit; fi
done

stamp=$(date -u +%Y%m%dT%H%M%SZ)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 - "$results" "$n" "$runs" "$here/results/incremental-$stamp.json" "$commit" "$("$hugo_bin" version | head -1)" "${page_size:-whole strip}" <<'PY'
import json, os, statistics, sys
path, n, runs, output, commit, hugo, page_size = sys.argv[1:8]
times, written = {}, {}
for line in open(path):
    tool, micros, files = line.rstrip("\n").split("\t")
    times.setdefault(tool, []).append(int(micros) / 1e6)
    if files:
        written.setdefault(tool, []).append(int(files))
medians = {tool: statistics.median(values) for tool, values in times.items()}
print(f"{n} albums (gallery's index page size: {page_size}), {runs} runs, load average {os.getloadavg()[0]:.2f}")
print(f"{'rebuild':<16}{'median s':>10}{'files written':>15}")
for tool in sorted(medians):
    files = f"{statistics.median(written[tool]):.0f}" if tool in written else "all"
    print(f"{tool:<16}{medians[tool]:>10.3f}{files:>15}")
ratios = {kind: medians[f"hugo-{kind}"] / medians[f"gallery-{kind}"] for kind in ("noop", "edit")}
for kind, ratio in ratios.items():
    print(f"hugo/gallery {kind}: {ratio:.1f}")
json.dump({"albums": int(n), "index_page_size": page_size, "runs": int(runs), "seconds": times, "files_written": written, "medians": medians,
           "ratios": ratios, "commit": commit, "hugo": hugo, "load_average": os.getloadavg()},
          open(output, "w"), indent=1, sort_keys=True)
print(f"wrote {output}")
PY
