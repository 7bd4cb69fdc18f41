#!/usr/bin/env python3
"""How smoothly a big collection's carousel scrolls in headless Chromium.

Usage: bench-scroll.py BASE_URL [ALBUM_NUMBER]

BASE_URL serves a built site (for example `gallery serve --output public` on a site made by
`generate-site.py 100000`). The script opens album ALBUM_NUMBER's page (default: the middle one),
then:

- scrolls the strip 40 px a frame for 600 frames (200 tiles) and records every frame's interval
  with requestAnimationFrame, and the long tasks (over 50 ms) the browser reports;
- counts the tiles in the document, which stays small when only the visible ones are drawn;
- presses End and times until the last album's tile is in the document and centred.

Prints the figures and writes Benchmarks/results/scroll-<date>.json. Needs chromium, chromium-driver and selenium
(`script/setup --test` installs them).
"""
import json
import os
import statistics
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

base = sys.argv[1].rstrip("/") + "/"
albums_json = json.load(urllib.request.urlopen(base + "albums.json"))
count = albums_json["count"]
number = int(sys.argv[2]) if len(sys.argv) > 2 else count // 2
album = albums_json["albums"][number - 1]

options = Options()
options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800"):
    options.add_argument(argument)
driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
try:
    start = time.monotonic()
    driver.get(base + album["url"])
    load = time.monotonic() - start
    time.sleep(1)
    frames, long_tasks, tiles = driver.execute_script("""
        var viewport = document.querySelector('#carousel .viewport');
        var longTasks = [];
        try {
            new PerformanceObserver(function (list) {
                list.getEntries().forEach(function (e) { longTasks.push(e.duration); });
            }).observe({entryTypes: ['longtask']});
        } catch (e) {}
        return new Promise(function (done) {
            var intervals = [], last = null, n = 0;
            function step(now) {
                if (last !== null) intervals.push(now - last);
                last = now;
                viewport.scrollLeft += 40;
                if (++n < 600) requestAnimationFrame(step);
                else setTimeout(function () {
                    done([intervals, longTasks, document.querySelectorAll('#carousel .tile').length]);
                }, 200);
            }
            requestAnimationFrame(step);
        });""")
    viewport = driver.find_element(By.CSS_SELECTOR, "#carousel .viewport")
    start = time.monotonic()
    viewport.send_keys(Keys.END)
    deadline = start + 30
    while time.monotonic() < deadline:
        if driver.execute_script("var t = document.querySelector('#carousel .tile.current'); return t && +t.dataset.index;") == count - 1:
            break
        time.sleep(0.02)
    jump = time.monotonic() - start
    tiles_after_jump = driver.execute_script("return document.querySelectorAll('#carousel .tile').length;")
finally:
    driver.quit()

frames.sort()
result = {
    "albums": count,
    "page_load_s": round(load, 3),
    "frames": len(frames),
    "frame_ms_median": round(statistics.median(frames), 2),
    "frame_ms_p95": round(frames[int(len(frames) * 0.95)], 2),
    "frame_ms_max": round(frames[-1], 2),
    "frames_over_50ms": sum(1 for f in frames if f > 50),
    "long_tasks": len(long_tasks),
    "tiles_in_document_after_scroll": tiles,
    "end_key_to_last_album_s": round(jump, 3),
    "tiles_in_document_after_jump": tiles_after_jump,
}
for key, value in result.items():
    print(f"{key:32} {value}")
stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
output = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", f"scroll-{stamp}.json")
os.makedirs(os.path.dirname(output), exist_ok=True)
with open(output, "w") as file:
    json.dump(result, file, indent=1, sort_keys=True)
print(f"wrote {output}")
