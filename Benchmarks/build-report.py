#!/usr/bin/env python3
"""Summarise a bench-build.sh run: medians, ratios, output sizes; print a table, write JSON.

Called by bench-build.sh as
  build-report.py --output FILE --runs R --hugo-bin B --gallery-bin G --repo ROOT [--hugo-only] -- N GEN_S DIR [N GEN_S DIR ...]
where DIR holds round-*.json (hyperfine exports), rss-gallery.txt / rss-hugo.txt (/usr/bin/time -v
output, appended once per run) and the outputs public-gallery/ and public-hugo/.
"""

import argparse
import glob
import hashlib
import json
import os
import platform
import re
import statistics
import subprocess
import sys
from datetime import datetime, timezone

TOOLS = ("gallery", "hugo")


def median(values):
    return statistics.median(values) if values else None


def peak_rss_kb(path):
    """Every 'Maximum resident set size (kbytes)' in a /usr/bin/time -v log, in run order."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="replace") as f:
        return [int(m) for m in re.findall(r"Maximum resident set size \(kbytes\): (\d+)", f.read())]


def timings(folder, tool):
    """Wall and CPU (user + system) seconds of each run of `tool`, from the hyperfine rounds."""
    wall, cpu = [], []
    for path in sorted(glob.glob(os.path.join(folder, "round-*.json"))):
        with open(path) as f:
            for result in json.load(f)["results"]:
                if result["command"] == tool:
                    wall.extend(result["times"])
                    cpu.append(result["user"] + result["system"])
    return wall, cpu


def output_stats(folder):
    """Pages and sizes of a build's output: every HTML page, the index, the album pages."""
    if not os.path.isdir(folder):
        return None
    html, files, total = [], 0, 0
    for base, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(base, name)
            size = os.path.getsize(path)
            files += 1
            total += size
            if name.endswith(".html"):
                html.append((os.path.relpath(path, folder), size))
    albums = [size for rel, size in html if rel.startswith("albums" + os.sep)]
    index = next((size for rel, size in html if rel == "index.html"), None)
    return {
        "files": files,
        "bytes": total,
        "html_pages": len(html),
        "avg_html_page_bytes": round(sum(s for _, s in html) / len(html)) if html else None,
        "album_pages": len(albums),
        "avg_album_page_bytes": round(sum(albums) / len(albums)) if albums else None,
        "index_bytes": index,
    }


def command_output(args, cwd=None):
    try:
        return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=30).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def sha256_of(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def ratio(numerator, denominator):
    return round(numerator / denominator, 3) if numerator and denominator else None


def fmt(value, digits=2, suffix=""):
    return "-" if value is None else f"{value:.{digits}f}{suffix}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output", required=True)
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--hugo-bin", default="hugo")
    parser.add_argument("--gallery-bin", required=True)
    parser.add_argument("--gallery-snapshot", help="the copy of the gallery binary that was timed")
    parser.add_argument("--repo", required=True)
    parser.add_argument("--hugo-only", action="store_true")
    parser.add_argument("records", nargs="+", help="N GEN_S DIR triples")
    args = parser.parse_args()
    if len(args.records) % 3:
        parser.error("records come in N GEN_S DIR triples")

    sizes = []
    for i in range(0, len(args.records), 3):
        n, generation, folder = int(args.records[i]), float(args.records[i + 1]), args.records[i + 2]
        entry = {"albums": n, "generation_s": generation, "folder": folder}
        for tool in TOOLS:
            if tool == "gallery" and args.hugo_only:
                entry[tool] = None
                continue
            wall, cpu = timings(folder, tool)
            rss = peak_rss_kb(os.path.join(folder, f"rss-{tool}.txt"))
            entry[tool] = {
                "median_s": round(median(wall), 4) if wall else None,
                "times_s": [round(t, 4) for t in wall],
                "median_cpu_s": round(median(cpu), 4) if cpu else None,
                "cpu_s": [round(t, 4) for t in cpu],
                "peak_rss_mb": round(median(rss) / 1024, 1) if rss else None,
                "peak_rss_mb_runs": [round(k / 1024, 1) for k in rss],
                "output": output_stats(os.path.join(folder, f"public-{tool}")),
            }
        g, h = entry["gallery"], entry["hugo"]
        entry["ratios"] = {
            "speed_hugo_over_gallery": ratio(h["median_s"], g["median_s"]) if g else None,
            "cpu_hugo_over_gallery": ratio(h["median_cpu_s"], g["median_cpu_s"]) if g else None,
            "memory_hugo_over_gallery": ratio(h["peak_rss_mb"], g["peak_rss_mb"]) if g else None,
        }
        compare = os.path.join(folder, "compare.txt")
        if os.path.exists(compare):
            with open(compare, encoding="utf-8") as f:
                lines = f.read().strip().splitlines()
            entry["equivalence"] = lines[-1] if lines else None
        if g and g["output"] and h["output"] and g["output"]["html_pages"] != h["output"]["html_pages"]:
            print(f"warning: N={n}: gallery wrote {g['output']['html_pages']} HTML pages, hugo "
                  f"{h['output']['html_pages']}; the sites are not equivalent", file=sys.stderr)
        sizes.append(entry)

    report = {
        "benchmark": "build",
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "runs_per_tool": args.runs,
        "method": "cold full builds (outputs and caches deleted before each run), alternating order, "
                  "hyperfine -N --runs 1 per round, peak RSS from /usr/bin/time -v; medians",
        "host": {
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
            "kernel": platform.release(),
        },
        "versions": {
            "hugo": command_output([args.hugo_bin, "version"]),
            "gallery_bin": None if args.hugo_only else args.gallery_bin,
            "gallery_sha256": None if args.hugo_only else sha256_of(args.gallery_snapshot or args.gallery_bin),
            "gallery_commit": command_output(["git", "rev-parse", "--short", "HEAD"], cwd=args.repo),
            "gallery_dirty": bool(command_output(["git", "status", "--porcelain"], cwd=args.repo)),
            "python": platform.python_version(),
        },
        "sizes": sizes,
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")

    header = ["N", "gallery s", "hugo s", "hugo/gallery", "gallery MB", "hugo MB", "mem hugo/gallery",
              "cpu hugo/gallery", "gallery page B", "hugo page B"]
    rows = []
    for e in sizes:
        g, h, r = e["gallery"] or {}, e["hugo"], e["ratios"]
        rows.append([
            str(e["albums"]), fmt(g.get("median_s"), 3), fmt(h["median_s"], 3),
            fmt(r["speed_hugo_over_gallery"], 2, "x"), fmt(g.get("peak_rss_mb"), 1), fmt(h["peak_rss_mb"], 1),
            fmt(r["memory_hugo_over_gallery"], 2, "x"), fmt(r["cpu_hugo_over_gallery"], 2, "x"),
            str((g.get("output") or {}).get("avg_html_page_bytes") or "-"),
            str((h["output"] or {}).get("avg_html_page_bytes") or "-"),
        ])
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]
    line = lambda cells: "  ".join(c.rjust(w) for c, w in zip(cells, widths))
    print(line(header))
    for row in rows:
        print(line(row))
    print(f"(medians of {args.runs} cold builds each; ratios > 1 mean gallery is faster / smaller)")


if __name__ == "__main__":
    main()
