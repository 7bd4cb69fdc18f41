#!/usr/bin/env python3
"""gallery serve's live reload in a real browser: headless Chromium driven through WebDriver.

Usage: serve.py GALLERY_BINARY SITE_FOLDER [ARTIFACTS_FOLDER]

Starts `gallery serve --port 0` in SITE_FOLDER (a site whose albums have explicit slugs), opens
its pages, edits the site, and stops and restarts the server, as a person previewing a site
does. Screenshots go to ARTIFACTS_FOLDER when given. Each check prints `ok NAME` or `FAIL NAME: why`; the exit status is 1 if any failed.
"""
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

import chrome
import report

BINARY, SITE = sys.argv[1], sys.argv[2]
ARTIFACTS = sys.argv[3] if len(sys.argv) > 3 else None
ARCHIVE = os.path.join(SITE, "content", "albums.json")
DEADLINE = 30  # seconds any one wait may take


def chromium(width=1280, height=800):
    return chrome.chromium(width=width, height=height, page_load_timeout=DEADLINE)

def wait(condition, what, deadline=DEADLINE):
    """Polls `condition()` until it is truthy; fails naming `what` after `deadline` seconds."""
    return report.wait(condition, what, deadline)


class Server:
    """A `gallery serve` of SITE, stopped with SIGINT (as Ctrl-C) or killed at the end."""

    def __init__(self, port=0, site=SITE):
        self.site = site
        self.start(port)

    def restart(self):
        """Starts the server again on the same port, as a person does after Ctrl-C."""
        self.start(self.port)

    def start(self, port):
        self.process = subprocess.Popen([BINARY, "serve", "--port", str(port)], cwd=self.site,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.url = None
        end = time.monotonic() + 60
        pending = b""
        while self.url is None and time.monotonic() < end and self.process.poll() is None:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready:
                pending += os.read(self.process.stdout.fileno(), 4096)
                for line in pending.decode(errors="replace").splitlines():
                    if line.startswith("Serving http://"):
                        self.url = line[len("Serving "):].strip()
        if self.url is None:
            self.stop()
            raise AssertionError("gallery serve did not announce its URL")
        self.port = int(self.url.split(":")[2].split("/")[0])

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(2)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def edit_archive(change):
    """Rewrites the site's archive with `change(albums)` applied."""
    with open(ARCHIVE) as file:
        archive = json.load(file)
    change(archive["albums"])
    with open(ARCHIVE, "w") as file:
        json.dump(archive, file, indent=2)


def mark(driver):
    """Marks the page in the current tab; a reload clears the mark."""
    driver.execute_script("window.__notReloaded = true;")


def reloaded(driver):
    return driver.execute_script("return document.readyState === 'complete' && !window.__notReloaded;")


def eight_tabs_load_and_all_reload(server):
    """Eight tabs of one served site all load (over HTTP/1.1 Chromium allows six connections per
    host, so a live-reload channel that holds one per page stalls the seventh), and one edit
    reloads every one of them."""
    driver = chromium()
    try:
        albums = json.load(open(ARCHIVE))["albums"]
        for tab in range(8):
            if tab:
                driver.switch_to.new_window("tab")
            path = "" if tab % 2 == 0 else f"albums/{albums[tab % len(albums)]['slug']}/"
            start = time.monotonic()
            try:
                driver.get(server.url + path)
            except Exception as error:
                raise AssertionError(f"tab {tab + 1} did not load in {DEADLINE} s ({type(error).__name__})")
            assert driver.execute_script("return document.readyState") == "complete", f"tab {tab + 1} is still loading"
            # A tab held up by the connection limit never loads (the page-load timeout above
            # fails it); a busy machine may only be slow, so the time is reported, not judged.
            print(f"# tab {tab + 1} loaded in {time.monotonic() - start:.1f} s", file=sys.stderr)
            mark(driver)
        tabs = driver.window_handles
        assert len(tabs) == 8, f"{len(tabs)} tabs open"
        # Each page has had a moment to connect before the edit.
        time.sleep(1)
        title = f"Renamed at {time.time()}"
        edit_archive(lambda albums: albums[0].update(title=title))
        for number, tab in enumerate(tabs, 1):
            driver.switch_to.window(tab)
            wait(lambda: reloaded(driver), f"tab {number} to reload after the edit")
            if number % 2 == 1:
                wait(lambda: title in driver.page_source, f"tab {number} to show the edit")
    finally:
        driver.quit()


def count_connections(driver):
    """Counts the page's attempts to open a WebSocket from now on, in `window.__connections`.
    (The console shows a line per failed attempt, but Chromium sometimes logs one twice.)"""
    driver.execute_script("""
        var Original = window.WebSocket;
        window.__connections = 0;
        window.WebSocket = function (url) { window.__connections++; return new Original(url); };""")


def a_restart_reloads_stale_pages_and_retries_slowly(server):
    """While the server is down the page retries with a growing delay (Chromium logs every failed
    attempt in the console, so retrying every second filled it); once it is back, a page whose build is stale reloads, and one whose
    build is still current does not."""
    driver = chromium()
    try:
        driver.get(server.url)
        time.sleep(1)
        mark(driver)
        count_connections(driver)
        server.stop()
        # Counted from when it is down: stopping may take seconds on a loaded machine, and the
        # attempts before it would widen the window.
        driver.execute_script("window.__connections = 0")
        time.sleep(10)
        attempts = driver.execute_script("return window.__connections")
        # Retrying every second, as EventSource does, would be ten.
        assert 2 <= attempts <= 5, f"{attempts} attempts to connect in 10 s while the server was down"
        server.restart()
        # Nothing changed: the page reconnects (within the longest retry delay) and stays.
        time.sleep(7)
        assert not reloaded(driver), "the page reloaded after a restart that changed nothing"
        server.stop()
        title = f"Changed while the server was down, at {time.time()}"
        edit_archive(lambda albums: albums[1].update(title=title))
        server.restart()
        wait(lambda: reloaded(driver), "the page to reload once the restarted server had a newer build")
        assert title in driver.page_source
    finally:
        driver.quit()


def broken_site():
    """A copy of the site whose archive does not parse, so its very first build fails."""
    folder = tempfile.mkdtemp(prefix="gallery-broken-")
    shutil.copytree(os.path.join(SITE, "content"), os.path.join(folder, "content"))
    with open(os.path.join(folder, "content", "albums.json"), "w") as file:
        file.write('{"version": 1, "albums": [\n  {"title": "Unfinished"\n')
    return folder


def a_first_build_that_fails_says_nothing_was_built(_):
    """When the very first build fails there is no last good build to speak of: the overlay,
    drawn by the server and again by the script, says the site could not be built yet, and the
    fallback page is readable on a phone (it has a viewport)."""
    folder = broken_site()
    server = Server(site=folder)
    driver = chromium(width=320, height=640)
    try:
        driver.get(server.url)
        overlay = wait(lambda: driver.find_element("id", "gallery-serve-overlay"), "the overlay")
        time.sleep(1)  # the script has connected and drawn the overlay again
        text = overlay.text
        assert "could not be built yet" in text, f"the overlay says {text[:200]!r}"
        assert "last good build" not in text and "last rebuild" not in text, f"the overlay says {text[:200]!r}"
        assert "content/albums.json" in text
        assert driver.execute_script("return window.innerWidth") == 320, "the page has no viewport: it is laid out for a desktop"
    finally:
        driver.quit()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def the_overlay_wraps_and_hides_the_page_on_a_narrow_screen(_):
    """At 320 px every line of the overlay wraps inside it (a <pre> keeps its own
    `white-space: pre` otherwise, cutting the lines off), and the page does not show through."""
    folder = broken_site()
    server = Server(site=folder)
    driver = chromium(width=320, height=640)
    try:
        for when in ("as served", "as the script draws it"):
            if when == "as served":
                driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
            driver.get(server.url)
            wait(lambda: driver.find_element("css selector", "#gallery-serve-overlay pre"), "the overlay")
            if when != "as served":
                time.sleep(1)  # the script has connected and drawn the overlay again
            found = driver.execute_script("""
                var overlay = document.getElementById('gallery-serve-overlay'), pre = overlay.querySelector('pre');
                return [pre.scrollWidth, pre.clientWidth, overlay.scrollWidth, overlay.clientWidth,
                        getComputedStyle(overlay).backgroundColor, pre.textContent.length];""")
            pre_scroll, pre_width, overlay_scroll, overlay_width, background, length = found
            assert length > 60, f"{when}: the diagnostics are too short to test wrapping ({length} characters)"
            assert pre_scroll <= pre_width and overlay_scroll <= overlay_width, \
                f"{when}: the overlay's lines are cut off at 320 px (scroll widths {pre_scroll}/{pre_width}, {overlay_scroll}/{overlay_width})"
            assert background.startswith("rgb("), f"{when}: the overlay's background {background} lets the page show through"
            driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
        if ARTIFACTS:
            os.makedirs(ARTIFACTS, exist_ok=True)
            driver.save_screenshot(os.path.join(ARTIFACTS, "serve-overlay-320.png"))
    finally:
        driver.quit()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def keyboard_focus_survives_a_reload(server):
    """A keyboard user on a tile of the strip stays there when a save reloads the page: the
    same tile's link has the focus again (it went back to the top of the page on every save)."""
    driver = chromium()
    try:
        albums = json.load(open(ARCHIVE))["albums"]
        driver.get(server.url + f"albums/{albums[1]['slug']}/")
        time.sleep(1)
        driver.execute_script("document.querySelector('#carousel .tile.current a').focus();")
        index = driver.execute_script("var t = document.activeElement.closest('[data-index]'); return t && t.dataset.index;")
        assert index is not None, "no tile link has the focus before the save"
        mark(driver)
        title = f"Focus kept at {time.time()}"
        edit_archive(lambda albums: albums[2].update(title=title))
        wait(lambda: reloaded(driver), "the page to reload after the edit")
        wait(lambda: driver.execute_script("var t = document.activeElement && document.activeElement.closest('[data-index]'); return t && t.dataset.index;") == index,
             f"tile {index}'s link to have the focus again after the reload")
        assert driver.execute_script("return document.activeElement.tagName") == "A"
    finally:
        driver.quit()


def a_policy_against_inline_scripts_still_reloads_and_shows_the_overlay(_):
    """A site whose Content-Security-Policy allows only its own scripts and styles (no inline
    ones) still reloads on a save and shows the overlay on a broken one: the script is linked
    from the server, not written into the page, and it styles the overlay through the CSSOM."""
    folder = tempfile.mkdtemp(prefix="gallery-csp-")
    shutil.copytree(os.path.join(SITE, "content"), os.path.join(folder, "content"))
    subprocess.run([BINARY, "templates", "base"], cwd=folder, capture_output=True, check=True)
    template = os.path.join(folder, "templates", "base.mustache")
    with open(template) as file:
        base = file.read()
    policy = "<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'self'; style-src 'self'\"/>"
    assert "<head>" in base, "the built-in base template has no <head>"
    with open(template, "w") as file:
        file.write(base.replace("<head>", "<head>\n" + policy, 1))
    archive = os.path.join(folder, "content", "albums.json")
    server = Server(site=folder)
    driver = chromium()
    try:
        driver.get(server.url)
        assert "Content-Security-Policy" in driver.page_source, "the page carries no policy"
        time.sleep(1)
        mark(driver)
        with open(archive) as file:
            good = file.read()
        with open(archive, "w") as file:
            file.write(good.replace('"title": "', '"title": "Renamed ', 1))
        wait(lambda: reloaded(driver), "the page to reload under a policy against inline scripts")
        time.sleep(1)
        with open(archive, "w") as file:
            file.write('{"version": 1, "albums": [\n  {"title": "Unfinished"\n')
        overlay = wait(lambda: driver.find_element("id", "gallery-serve-overlay"), "the overlay under the policy")
        background = driver.execute_script("return getComputedStyle(arguments[0]).backgroundColor", overlay)
        assert background.startswith("rgb(") and background != "rgba(0, 0, 0, 0)", f"the overlay is not styled: {background}"
        with open(archive, "w") as file:
            file.write(good)
        wait(lambda: reloaded(driver) and not driver.find_elements("id", "gallery-serve-overlay"), "the fixed site to replace the overlay")
    finally:
        driver.quit()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    server = Server()
    failures = 0
    try:
        for check in [eight_tabs_load_and_all_reload, a_restart_reloads_stale_pages_and_retries_slowly,
                      a_first_build_that_fails_says_nothing_was_built,
                      the_overlay_wraps_and_hides_the_page_on_a_narrow_screen,
                      a_policy_against_inline_scripts_still_reloads_and_shows_the_overlay,
                      keyboard_focus_survives_a_reload]:
            failures += not report.run(check, server)
    finally:
        server.stop()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
