#!/usr/bin/env python3
"""Times how long `gallery build` takes to stop after SIGTERM while it renders: from the signal
to the process's end, which is how long its handler waits for a thread before it removes the
staging folder. Two binaries side by side, alternating, on one generated site.

    Benchmarks/bench-stop-latency.py [--albums N] [--rounds R] OLD NEW

Each round starts a `build --clean` of each binary and signals it once its staging folder holds
album pages (rendering is under way), then waits for it to end; it checks the build said it
stopped without changing the output. Prints the median and the spread for each binary, and
their ratio. The site goes to BENCH_DIR (default /dev/shm/gallery-bench/stop-latency).
"""
import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--albums", type=int, default=10000)
parser.add_argument("--rounds", type=int, default=8)
parser.add_argument("old")
parser.add_argument("new")
args = parser.parse_args()
bench = os.environ.get("BENCH_DIR", "/dev/shm/gallery-bench/stop-latency")
shutil.rmtree(bench, ignore_errors=True)
subprocess.run([sys.executable, os.path.join(here, "generate-site.py"), str(args.albums), bench], check=True, stdout=subprocess.DEVNULL)
site = os.path.join(bench, "gallery")
staged = os.path.join(site, "public", ".gallery-staging", "albums")
binaries = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
subprocess.run([binaries["new"], "build", "-q"], cwd=site, check=True)

times = {name: [] for name in binaries}
for round_ in range(args.rounds):
    for name in (["old", "new"] if round_ % 2 == 0 else ["new", "old"]):
        build = subprocess.Popen([binaries[name], "build", "--clean", "-q"], cwd=site, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while build.poll() is None and not os.path.exists(staged) and time.monotonic() < deadline:
            time.sleep(0.001)
        time.sleep(0.2)  # well into rendering
        if build.poll() is not None:
            sys.exit(f"bench-stop-latency.py: the {name} build ended before it could be stopped; give more --albums")
        start = time.monotonic()
        build.send_signal(signal.SIGTERM)
        said = build.stderr.read().decode()
        build.wait()
        times[name].append(time.monotonic() - start)
        if "the output folder was not changed" not in said:
            sys.exit(f"bench-stop-latency.py: the {name} build said {said!r}")

for name, values in times.items():
    print(f"{name}: median {statistics.median(values) * 1000:.0f} ms (from {min(values) * 1000:.0f} to {max(values) * 1000:.0f} ms) over {len(values)} stops")
print(f"old/new: {statistics.median(times['old']) / statistics.median(times['new']):.1f}")
print(f"load average {os.getloadavg()[0]:.2f}")
