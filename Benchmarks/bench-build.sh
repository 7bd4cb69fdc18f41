#!/usr/bin/env bash
# Times a cold full `gallery build` against a cold full `hugo` build of the equivalent site,
# side by side in one run, for each album count N (default: 1000 10000).
#
#   Benchmarks/bench-build.sh [--runs R] [--hugo-only] [N...]
#
# Environment:
#   GALLERY_BIN  the gallery binary (default: .build/release/gallery at the repo root)
#   BENCH_DIR    where sites and outputs go (default: /dev/shm/gallery-bench; keep it on tmpfs)
#   HUGO_BIN     the hugo binary (default: hugo on PATH)
#
# Each round runs both builds once through hyperfine, in alternating order (gallery first in odd
# rounds, hugo first in even ones), after deleting both outputs and caches; each build runs under
# /usr/bin/time -v for its peak RSS. One untimed warm-up build of each comes first. The gallery
# binary is copied into BENCH_DIR first, so a rebuild during the run does not change what is
# timed. Afterwards compare-outputs.py checks that both outputs are the same site. Prints a table
# of medians and writes Benchmarks/results/build-<date>.json. Quote the ratios: the machine is
# shared, so absolute times move from run to run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

runs=5
hugo_only=0
sizes=()
while (($#)); do
    case "$1" in
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --runs=*) runs=${1#--runs=}; shift ;;
        --hugo-only) hugo_only=1; shift ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
        -*) echo "bench-build.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
        *) [[ $1 =~ ^[1-9][0-9]*$ ]] || { echo "bench-build.sh: N must be a positive whole number, not '$1'" >&2; exit 2; }
           sizes+=("$1"); shift ;;
    esac
done
((${#sizes[@]})) || sizes=(1000 10000)
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench-build.sh: --runs must be a positive whole number" >&2; exit 2; }

gallery_bin=${GALLERY_BIN:-$root/.build/release/gallery}
[[ $gallery_bin == /* ]] || gallery_bin="$PWD/$gallery_bin"
hugo_bin=${HUGO_BIN:-hugo}
bench_dir=${BENCH_DIR:-/dev/shm/gallery-bench}

if ((!hugo_only)) && [[ ! -x $gallery_bin ]]; then
    echo "bench-build.sh: no gallery binary at $gallery_bin" >&2
    echo "  Build it first:  (cd '$root' && swift build -c release)" >&2
    echo "  or point GALLERY_BIN at one, or pass --hugo-only to time Hugo alone." >&2
    exit 1
fi
for tool in hyperfine python3 "$hugo_bin"; do
    command -v "$tool" >/dev/null || { echo "bench-build.sh: $tool is not installed" >&2; exit 1; }
done
if ! /usr/bin/time -v true >/dev/null 2>&1; then
    echo "bench-build.sh: installing GNU time (Debian package 'time') for peak RSS" >&2
    if ((EUID == 0)); then apt-get install -y time >&2; else sudo apt-get install -y time >&2; fi
fi
for path in "$bench_dir" "$gallery_bin"; do
    [[ $path != *[[:space:]]* ]] || { echo "bench-build.sh: paths with spaces are not supported: '$path'" >&2; exit 2; }
done
case "$bench_dir" in
    /dev/shm/*) ;;
    *) echo "bench-build.sh: warning: BENCH_DIR=$bench_dir is not under /dev/shm; disk I/O will be part of the times" >&2 ;;
esac

mkdir -p "$bench_dir" "$here/results"
if ((!hugo_only)); then
    # Time a snapshot: a rebuild of .build/release during the run must not change what is measured.
    cp "$gallery_bin" "$bench_dir/gallery-under-test"
    gallery_source=$gallery_bin
    gallery_bin="$bench_dir/gallery-under-test"
fi
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
result_json="$here/results/build-$stamp.json"
export HUGO_CACHEDIR="$bench_dir/hugo-cache"
records=()

for n in "${sizes[@]}"; do
    dir="$bench_dir/$n"
    echo "== N=$n: generating sites in $dir" >&2
    t0=$(date +%s.%N)
    python3 "$here/generate-site.py" "$n" "$dir" >&2
    t1=$(date +%s.%N)
    generation=$(python3 -c "print(round($t1 - $t0, 3))")

    gallery_out="$dir/public-gallery"
    hugo_out="$dir/public-hugo"
    gallery_cmd="$gallery_bin build --site $dir/gallery --output $gallery_out"
    hugo_cmd="$hugo_bin --quiet --source $dir/hugo --destination $hugo_out"
    gallery_prepare="rm -rf $gallery_out $dir/gallery/.gallery-cache"
    hugo_prepare="rm -rf $hugo_out $dir/hugo/resources $dir/hugo/.hugo_build.lock $HUGO_CACHEDIR"
    rm -f "$dir"/rss-*.txt "$dir"/round-*.json "$dir"/compare.txt

    echo "== N=$n: warm-up build of each" >&2
    if ((!hugo_only)); then $gallery_prepare; $gallery_cmd >/dev/null; fi
    $hugo_prepare; $hugo_cmd >/dev/null

    for ((r = 1; r <= runs; r++)); do
        args=()
        add_gallery() { args+=(--prepare "$gallery_prepare" -n gallery "/usr/bin/time -v -a -o $dir/rss-gallery.txt $gallery_cmd"); }
        add_hugo() { args+=(--prepare "$hugo_prepare" -n hugo "/usr/bin/time -v -a -o $dir/rss-hugo.txt $hugo_cmd"); }
        if ((hugo_only)); then add_hugo
        elif ((r % 2)); then add_gallery; add_hugo
        else add_hugo; add_gallery
        fi
        echo "== N=$n: round $r of $runs" >&2
        hyperfine -N --runs 1 --style none --export-json "$dir/round-$r.json" "${args[@]}" >&2
    done
    if ((!hugo_only)); then
        echo "== N=$n: comparing the two outputs" >&2
        python3 "$here/compare-outputs.py" "$gallery_out" "$hugo_out" >"$dir/compare.txt" || true
        cat "$dir/compare.txt" >&2
    fi
    records+=("$n" "$generation" "$dir")
done

python3 "$here/build-report.py" --output "$result_json" --runs "$runs" --hugo-bin "$hugo_bin" \
    --gallery-bin "${gallery_source:-$gallery_bin}" --gallery-snapshot "$gallery_bin" --repo "$root" $( ((hugo_only)) && echo --hugo-only ) -- "${records[@]}"
echo "results: $result_json" >&2
