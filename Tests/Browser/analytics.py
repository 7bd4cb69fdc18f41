#!/usr/bin/env python3
"""gallery's [analytics] scripts in a real browser: headless Chromium driven through WebDriver.

Usage: analytics.py GALLERY_BINARY SITE_FOLDER

Builds SITE_FOLDER with `gallery build` twice, once per provider, and serves its public/ folder
from a loopback server that also plays the analytics service:

- GoatCounter, self-hosted: the pages load /count.js from this server, as they would load
  https://gc.zgo.at/count.js. Like GoatCounter's own count.js, it reads the endpoint from the
  script element's data-goatcounter attribute and reports the page's path there; the server
  records what reached it.
- Google Analytics 4: the page runs Google's configuration snippet; Google's tag itself is on
  the internet, which this machine cannot reach (every other host resolves to nothing), so the
  check reads the page's dataLayer, the queue gtag.js would send.

Then it builds the site once more with a carousel partial that renames the classes the page's
script looks for, and checks the page keeps working without the script.

Each check prints `ok NAME` or `FAIL NAME: why`; the exit status is 1 if any failed.
"""
import http.server
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse

import chrome
import report

BINARY, SITE = sys.argv[1], sys.argv[2]
PUBLIC = os.path.join(SITE, "public")
DEADLINE = 30
HITS = []  # the paths reported to the counter, in order
HITS_LOCK = threading.Lock()

# Reads its settings as GoatCounter's count.js does (the data-goatcounter attribute of its own
# script element) and reports the path it was loaded on.
COUNT_JS = b"""(function () {
  var script = document.querySelector('script[data-goatcounter]');
  var endpoint = script && script.getAttribute('data-goatcounter');
  if (!endpoint) return;
  fetch(endpoint + '?p=' + encodeURIComponent(location.pathname), {method: 'POST'});
})();
"""


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=PUBLIC, **kwargs)

    def do_GET(self):
        if self.path == "/count.js":
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", str(len(COUNT_JS)))
            self.end_headers()
            self.wfile.write(COUNT_JS)
            return
        super().do_GET()

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path != "/count":
            self.send_error(404)
            return
        with HITS_LOCK:
            HITS.append(urllib.parse.parse_qs(url.query).get("p", [""])[0])
        self.send_response(204)
        self.end_headers()

    def end_headers(self):
        # Each check rebuilds the pages at the same URLs: the browser must not keep the last
        # build's (heuristic freshness from Last-Modified once served the previous provider's).
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass


def build(config):
    with open(os.path.join(SITE, "gallery.toml"), "w") as file:
        file.write(config)
    run = subprocess.run([BINARY, "build", "--site", SITE, "-q"], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"gallery build failed: {run.stderr}")


def chromium():
    # Only loopback exists: googletagmanager.com fails at once instead of waiting for a DNS
    # answer that never comes.
    return chrome.chromium(arguments=["--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"])

def wait(condition, what):
    end = time.monotonic() + DEADLINE
    last = None
    while time.monotonic() < end:
        last = condition()
        if last:
            return last
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def goatcounter_counts_each_page(driver, base):
    build(f'[analytics]\nprovider = "goatcounter"\nendpoint = "{base}count"\nscript = "{base}count.js"\n')
    album = sorted(name for name in os.listdir(os.path.join(PUBLIC, "albums")))[1]
    for path in ["/", f"/albums/{album}/"]:
        driver.get(base.rstrip("/") + path)
        wait(lambda: path in HITS, f"a visit of {path} reported to the counter (reported: {HITS})")
    with HITS_LOCK:
        assert HITS == ["/", f"/albums/{album}/"], f"each page load reports once: {HITS}"


def google_configures_the_measurement_id(driver, base):
    build('[analytics]\nprovider = "google"\nid = "G-BROWSER42"\n')
    driver.get(base)
    queue = wait(lambda: driver.execute_script(
        "return window.dataLayer && dataLayer.map(function (a) { return Array.prototype.map.call(a, String); });"),
        "the configuration snippet to fill dataLayer")
    assert len(queue) == 2 and queue[0][0] == "js" and queue[1] == ["config", "G-BROWSER42"], f"dataLayer: {queue}"
    tag = driver.execute_script(
        "var s = document.querySelector('script[src*=\"googletagmanager\"]'); return s && [s.src, s.async];")
    assert tag == ["https://www.googletagmanager.com/gtag/js?id=G-BROWSER42", True], f"Google's tag: {tag}"
    # The page's own script still runs: it marks the carousel as driven by script.
    wait(lambda: driver.execute_script("return document.getElementById('carousel').classList.contains('js')"),
         "gallery's own script to take over the carousel")
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              and "googletagmanager.com" not in entry["message"]]
    assert not errors, "console errors besides the unreachable tag: " + json.dumps(errors)


def a_template_without_the_scripts_hooks_keeps_its_page(driver, base):
    """A designer's carousel partial that renames the strip's classes (README, "What the script
    looks for") gets a page without the script's behaviour, not a script that throws."""
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(repository, "templates", "partials", "carousel.mustache")) as file:
        partial = file.read()
    assert 'class="viewport"' in partial and 'class="strip"' in partial, "the built-in partial has no .viewport/.strip"
    override = os.path.join(SITE, "templates", "partials", "carousel.mustache")
    os.makedirs(os.path.dirname(override), exist_ok=True)
    with open(override, "w") as file:
        file.write(partial.replace('class="viewport"', 'class="plattenregal"').replace('class="strip"', 'class="regal"'))
    try:
        build("")
        driver.get_log("browser")  # what earlier checks left
        driver.get(base)
        wait(lambda: driver.execute_script("return document.readyState === 'complete'"), "the page to load")
        links = driver.execute_script("return document.querySelectorAll('#carousel .tile a[href]').length")
        assert links > 0, "the tiles are no longer links"
        scripted = driver.execute_script("return document.getElementById('carousel').classList.contains('js')")
        assert not scripted, "the script took over a carousel it cannot drive"
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert not errors, "console errors: " + json.dumps(errors)
    finally:
        os.remove(override)


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    failures = 0
    driver = chromium()
    try:
        for check in [goatcounter_counts_each_page, google_configures_the_measurement_id,
                      a_template_without_the_scripts_hooks_keeps_its_page]:
            failures += not report.run(check, driver, base)
    finally:
        driver.quit()
        server.shutdown()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
