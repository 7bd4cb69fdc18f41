#!/usr/bin/env python3
"""gallery's carousel in a real browser: headless Chromium driven through WebDriver (selenium).

Usage: carousel.py BASE_URL ARTIFACTS_FOLDER

BASE_URL serves a built site (the end-to-end test starts `gallery serve`). Every check runs, and
each prints `ok NAME` or `FAIL NAME: why`; the exit status is 1 if any failed. Screenshots at
320 px and 1280 px wide are saved in ARTIFACTS_FOLDER.

Positions are checked against the seed's formulas, computed here from the carousel's data
attributes, not against numbers the script itself reports.
"""
import importlib.util
import json
import os
import sys
import time
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import chrome
import report

BASE = sys.argv[1].rstrip("/") + "/"
ARTIFACTS = sys.argv[2]
ALBUMS = json.load(urllib.request.urlopen(BASE + "albums.json"))["albums"]
DEADLINE = 30  # seconds any one wait may take
PAGE_SIZE = 20  # the test site's index_page_size: album 20 opens page 2
# The test site's [text], in German: the words the script writes must be the site's.
BY = "von"
ALBUM_BY = "{title} von {artist}"
COVER_OF = "Plattencover: {title} von {artist}"
NO_COVER_FOR = "Kein Cover: {title} von {artist}"
STATUS = "Album {number} von {count}: {title} von {artist} ({year})"


def words(pattern, album, **more):
    """A [text] pattern filled in with an album's fields (and `more`), as the site fills it."""
    return pattern.format(**{**album, **more})


def chromium(javascript=True, width=1280, height=800):
    return chrome.chromium(javascript=javascript, width=width, height=height)

def wait(driver, condition, what, deadline=DEADLINE):
    """Polls `condition(driver)` until it is truthy; fails naming `what` after `deadline` seconds."""
    return report.wait(lambda: condition(driver), what, deadline)


class Strip:
    """The seed's arithmetic, from the carousel's data attributes and the viewport's size."""

    def __init__(self, driver):
        values = driver.execute_script("""
            var c = document.getElementById('carousel'), v = c.querySelector('.viewport');
            return [+c.dataset.padding, +c.dataset.dimension, +c.dataset.offset, +c.dataset.count,
                    v.clientWidth, v.scrollWidth];""")
        self.padding, self.dimension, self.offset, self.count, self.width, self.scroll_width = values
        self.stride = self.dimension + 2 * self.padding

    def frame_x(self, i):
        return self.offset + self.padding + i * self.stride

    def target(self, i):
        centring = self.frame_x(i) + self.dimension / 2 - self.width / 2
        return max(0, min(self.scroll_width - self.width, centring))

    def centred_index(self, scroll_left):
        """centerCurrentView: (x + offset/2 + padding) / stride, x the seed's content offset."""
        x = scroll_left - (self.offset + self.padding + self.dimension / 2 - self.width / 2)
        return max(0, min(self.count - 1, int((int(x // 1) + self.offset // 2 + self.padding) / self.stride)))


def open_fresh(driver, path=""):
    """Opens a page as a first visit: no remembered album in localStorage."""
    origin = BASE.split("/", 3)
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": "/".join(origin[:3]), "storageTypes": "local_storage"})
    driver.get(BASE + path)


def current(driver):
    return driver.execute_script(
        "var t = document.querySelector('#carousel .tile.current'); return t ? +t.dataset.index : null;")


def scroll_left(driver):
    return driver.execute_script("return document.querySelector('#carousel .viewport').scrollLeft;")


def details_title(driver):
    return driver.execute_script("return document.querySelector('#details [data-field=title]').textContent;")


def settled_on(driver, index):
    """Waits until album `index` is current, centred by the formula, and shown in the table."""
    strip = Strip(driver)
    wait(driver, lambda d: current(d) == index and abs(scroll_left(d) - strip.target(index)) <= 1
         and details_title(d) == ALBUMS[index]["title"],
         f"album {index} current, centred at {strip.target(index)} and in the table "
         f"(current {current(driver)}, scrollLeft {scroll_left(driver)})")


def click_selects_and_centres(driver):
    """A tap selects and centres (the seed's scrollerTapped); the index keeps its address; a tap
    on the selected tile opens its page."""
    open_fresh(driver)
    settled_on(driver, 0)
    driver.find_element(By.CSS_SELECTOR, '#carousel .tile[data-index="4"] img').click()
    settled_on(driver, 4)
    assert driver.current_url == BASE, f"the index moved to {driver.current_url}"
    driver.find_element(By.CSS_SELECTOR, '#carousel .tile[data-index="4"] img').click()
    wait(driver, lambda d: d.current_url == BASE + ALBUMS[4]["url"], "a tap on the selected tile to open its page")
    settled_on(driver, 4)


def scroll_end_snaps_to_the_formula(driver):
    open_fresh(driver)
    settled_on(driver, 0)
    strip = Strip(driver)
    # A seed content offset of 7 strides plus 65 px: the formula says 8 (rounding past the middle),
    # where a plain floor would say 7.
    position = 7 * strip.stride + 65 + (strip.offset + strip.padding + strip.dimension / 2 - strip.width / 2)
    expected = strip.centred_index(position)
    assert expected == 8, f"the formula gives {expected}"
    driver.execute_script("document.querySelector('#carousel .viewport').scrollTo({left: arguments[0], behavior: 'instant'});", position)
    settled_on(driver, expected)
    assert driver.current_url == BASE, f"the index moved to {driver.current_url}"


def a_new_width_keeps_the_selection(driver):
    """A resize keeps the current album, centred again where the strip lets it be: the last
    album's page (whose strip rests at its end) and the second's (at its start) stay their own
    pages at every width."""
    try:
        for index in (len(ALBUMS) - 1, 1):
            path = ALBUMS[index]["url"]
            open_fresh(driver, path)
            settled_on(driver, index)
            for width in (400, 700, 1280, 900, 360):
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False})
                # Longer than the script waits for a scroll to end (150 ms) before it selects.
                time.sleep(0.6)
                settled_on(driver, index)
                assert driver.current_url == BASE + path, f"at {width} px album {index}'s page became {driver.current_url}"
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def the_strip_stays_at_either_end(driver):
    """Scrolled to an end, the strip stays there: where the album the formula names cannot be
    centred, the nearest album that rests at that end is selected instead of the strip springing
    back from it."""
    open_fresh(driver)
    settled_on(driver, 0)
    driver.find_element(By.CSS_SELECTOR, '#carousel .tile[data-index="6"] img').click()
    settled_on(driver, 6)
    # The end of the script's own scroll to album 6 (a scroll the script makes selects nothing),
    # before this one's scrolls, which stand for the visitor's.
    time.sleep(0.4)
    strip = Strip(driver)
    end = strip.scroll_width - strip.width
    at_start = max(i for i in range(strip.count) if strip.target(i) <= 1)
    at_end = min(i for i in range(strip.count) if strip.target(i) >= end - 1)
    assert strip.target(strip.centred_index(0)) > 1, "the test needs a window where the formula's album at the start cannot be centred"
    for position, expected in ((0, at_start), (end, at_end)):
        driver.execute_script("document.querySelector('#carousel .viewport').scrollTo({left: arguments[0], behavior: 'instant'});", position)
        settled_on(driver, expected)
        time.sleep(0.4)
        assert abs(scroll_left(driver) - position) <= 1, f"the strip sprang back from {position} to {scroll_left(driver)}"
        assert current(driver) == expected, f"album {current(driver)} after the strip rested at {position}"


def press_from_the_first(driver, steps):
    """Opens the index fresh, then presses each key in the strip and waits for its album.
    `steps` is a list of (key, album index it should settle on)."""
    open_fresh(driver)
    settled_on(driver, 0)
    viewport = driver.find_element(By.CSS_SELECTOR, "#carousel .viewport")
    for key, index in steps:
        viewport.send_keys(key)
        settled_on(driver, index)


# Answers the first request for each album data file with a 503, as a busy server or a
# dropped connection would, before the page's own script runs.
FAIL_DATA_ONCE = """
(function () {
  var real = window.fetch, failed = window.__failedData = [];
  window.fetch = function (url) {
    var u = String(url);
    if (/\\/data\\/albums-\\d+\\.json/.test(u) && failed.indexOf(u) < 0) {
      failed.push(u);
      return Promise.resolve(new Response("", { status: 503 }));
    }
    return real.apply(this, arguments);
  };
})();
"""


def a_failed_data_file_is_asked_for_again(driver):
    """An album data file that fails once is asked for again: the selection, the details and
    the strip recover without a reload (they stayed empty and busy for good), and the tiles the
    page came with come back when scrolled to, data or not."""
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAIL_DATA_ONCE})
    try:
        press_from_the_first(driver, [(Keys.ARROW_RIGHT, 1), (Keys.END, len(ALBUMS) - 1), (Keys.HOME, 0)])
        failed = driver.execute_script("return window.__failedData.length;")
        assert failed >= 1, "no data file was failed: the check proves nothing"
        tiles = driver.execute_script("return document.querySelectorAll('#carousel .tile').length;")
        assert tiles >= 5, f"only {tiles} tiles in the strip after Home"
        assert not driver.execute_script("return document.getElementById('carousel').classList.contains('waiting');"), \
            "the strip still says it is waiting"
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


# Notes how each album data file is asked for: whether the browser may answer from its cache.
NOTE_DATA_CACHE = """
(function () {
  var real = window.fetch, modes = window.__dataCache = [];
  window.fetch = function (url, init) {
    if (/\\/data\\/albums-\\d+\\.json/.test(String(url))) modes.push(new Request(url, init).cache);
    return real.apply(this, arguments);
  };
})();
"""


def data_files_are_asked_of_the_server(driver):
    """The album data files keep their names from build to build (data/albums-K.json), so each
    is asked of the server every time (a 304 when unchanged): a copy kept from before a deploy
    (GitHub Pages sends max-age=600; nginx lets browsers guess) put another album under this
    page's tiles, and the heading and address followed it."""
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NOTE_DATA_CACHE})
    try:
        press_from_the_first(driver, [(Keys.END, len(ALBUMS) - 1)])
        modes = driver.execute_script("return window.__dataCache;")
        assert modes, "no data file was asked for: the check proves nothing"
        assert all(mode == "no-cache" for mode in modes), f"data files asked for with cache modes {modes}"
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


# Fails every fetch but the album data files': the album pages the script would take the rest
# of a page from, so what it writes itself is all there is.
ONLY_DATA = """
(function () {
  var real = window.fetch;
  window.fetch = function (url) {
    if (/\\/data\\/albums-\\d+\\.json/.test(String(url))) return real.apply(this, arguments);
    return Promise.reject(new TypeError("blocked by the test"));
  };
})();
"""


def the_title_follows_an_album_of_two_spaces(driver):
    """On the page of an album whose artist has two spaces in a row (album 6), the page's title
    follows the selection at once, as on any other album's page: the title the browser reads has
    one space there, and the script measured the album's text with two, so it stopped writing
    titles (and waited for the neighbour's page, which may never come)."""
    start = 5
    assert "  " in ALBUMS[start]["artist"], "the test site has no artist with two spaces"
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ONLY_DATA})
    try:
        driver.get(BASE + ALBUMS[start]["url"])
        settled_on(driver, start)
        driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(Keys.ARROW_RIGHT)
        settled_on(driver, start + 1)
        album = ALBUMS[start + 1]
        wait(driver, lambda d: d.execute_script("return document.title;").startswith(album["title"] + " · " + album["artist"] + " · "),
             f"the title of album {start + 1} (saw {driver.execute_script('return document.title;')!r})")
    finally:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]})


def history_length(driver):
    return driver.execute_script("return history.length;")


def keys_move_between_albums(driver):
    """Arrows, Home and End select; they add nothing to the history, and with a modifier (Alt+←
    is the browser's Back) they are the browser's, not the strip's."""
    open_fresh(driver)
    settled_on(driver, 0)
    before = history_length(driver)
    press_from_the_first(driver, [(Keys.ARROW_RIGHT, 1), (Keys.ARROW_RIGHT, 2), (Keys.ARROW_LEFT, 1),
                                  (Keys.END, len(ALBUMS) - 1), (Keys.HOME, 0)])
    driver.find_element(By.CSS_SELECTOR, "#carousel .carousel-next").click()
    settled_on(driver, 1)
    assert history_length(driver) <= before + 1, f"history grew from {before} to {history_length(driver)}"
    assert driver.current_url == BASE, f"the index moved to {driver.current_url}"
    driver.execute_script("""document.querySelector('#carousel .viewport').dispatchEvent(
        new KeyboardEvent('keydown', {key: 'ArrowRight', altKey: true, bubbles: true, cancelable: true}));""")
    time.sleep(0.3)
    assert current(driver) == 1, f"Alt+→ moved the strip to {current(driver)}"


def album_page_follows_the_selection(driver):
    """On an album page the page becomes the selected album's: heading, title, cover, neighbours
    and address (replaced, so Back leaves the page), and a reload shows the same album."""
    start = 2
    driver.get(BASE + ALBUMS[start]["url"])
    settled_on(driver, start)
    before = history_length(driver)
    viewport = driver.find_element(By.CSS_SELECTOR, "#carousel .viewport")
    for index in (3, 4):
        viewport.send_keys(Keys.ARROW_RIGHT)
        settled_on(driver, index)
    album = ALBUMS[4]
    page = lambda d: d.execute_script("""
        var h = document.querySelector('main h1'), c = document.querySelector('main img.cover');
        var p = document.querySelector('a[rel=prev]'), n = document.querySelector('a[rel=next]');
        return [location.href, h.textContent, document.title, c.getAttribute('src'), c.alt,
                p && !p.hidden ? [p.getAttribute('href'), p.textContent] : null,
                n && !n.hidden ? [n.getAttribute('href'), n.textContent] : null];""")
    expected = [BASE + album["url"], album["title"] + " " + BY + " " + album["artist"]]
    wait(driver, lambda d: page(d)[:2] == expected, f"the address and heading of album 4 (saw {page(driver)[:2]})")
    found = page(driver)
    assert found[2].startswith(album["title"] + " · " + album["artist"] + " · "), f"title {found[2]!r}"
    assert found[3] == BASE + album["cover"], f"cover {found[3]} is not {album['cover']}"
    assert found[4] == words(COVER_OF, album), f"alt {found[4]!r}"
    assert found[5] == [BASE + ALBUMS[3]["url"], "← " + ALBUMS[3]["title"]], f"previous {found[5]}"
    assert found[6] == [BASE + ALBUMS[5]["url"], ALBUMS[5]["title"] + " →"], f"next {found[6]}"
    assert history_length(driver) == before, f"history grew from {before} to {history_length(driver)}"
    driver.refresh()
    settled_on(driver, 4)
    assert page(driver)[1] == expected[1], f"after a reload the heading is {page(driver)[1]!r}"
    viewport = driver.find_element(By.CSS_SELECTOR, "#carousel .viewport")
    viewport.send_keys(Keys.HOME)
    settled_on(driver, 0)
    wait(driver, lambda d: page(d)[5] is None and page(d)[6] == [BASE + ALBUMS[1]["url"], ALBUMS[1]["title"] + " →"],
         f"the first album's page to have no previous link (saw {page(driver)[5:]})")


def focus_follows_the_selection(driver):
    """One tab stop in the strip, the selected tile; arrows carry the focus with the selection,
    even across tiles the script adds and removes, and Enter opens the selected album."""
    open_fresh(driver)
    settled_on(driver, 0)
    tabbable = driver.execute_script("return document.querySelectorAll('#carousel .tile a[tabindex=\"0\"]').length;")
    assert tabbable == 1, f"{tabbable} tiles take the Tab key"
    driver.execute_script("document.querySelector('#carousel .tile.current a').focus();")
    focused = lambda d: d.execute_script(
        "var t = document.activeElement.closest('#carousel .tile'); return t ? +t.dataset.index : document.activeElement.tagName;")
    for step in range(1, 31):
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
        wait(driver, lambda d: current(d) == step and focused(d) == step, f"focus on album {step} (on {focused(driver)})")
    ActionChains(driver).send_keys(Keys.END).perform()
    wait(driver, lambda d: focused(d) == len(ALBUMS) - 1, f"focus on the last album (on {focused(driver)})")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait(driver, lambda d: d.current_url == BASE + ALBUMS[-1]["url"], "Enter to open the selected album's page")


def deep_link_opens_its_album_centred(driver):
    # Beyond the album page's static window too: the script fetches the rest from albums.json.
    index = len(ALBUMS) - 6
    driver.get(BASE + ALBUMS[index]["url"])
    settled_on(driver, index)
    viewport = driver.find_element(By.CSS_SELECTOR, "#carousel .viewport")
    viewport.send_keys(Keys.HOME)
    settled_on(driver, 0)
    image = driver.find_element(By.CSS_SELECTOR, '#carousel .tile[data-index="0"] img')
    wait(driver, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0;", image),
         "the first tile's image, rendered by the script, to load")


def reload_restores_the_last_album(driver):
    """The memento: the index page that holds the last album opens on it, at its own address;
    another index page opens on its own first album."""
    open_fresh(driver)
    settled_on(driver, 0)
    driver.find_element(By.CSS_SELECTOR, '#carousel .tile[data-index="3"] img').click()
    settled_on(driver, 3)
    driver.get(BASE)
    settled_on(driver, 3)
    assert driver.current_url == BASE, f"the index moved to {driver.current_url}"
    driver.get(BASE + "page/2/")
    settled_on(driver, PAGE_SIZE)
    assert driver.current_url == BASE + "page/2/", f"page 2 moved to {driver.current_url}"


def spinner_goes_once_the_image_has_loaded(driver):
    driver.get(BASE + ALBUMS[0]["url"])
    settled_on(driver, 0)
    # Slow, uncached images: tiles the script adds must show the spinner until theirs arrive.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 600, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(Keys.END)
        wait(driver, lambda d: d.execute_script("return document.querySelectorAll('#carousel .tile.loading').length;"),
             "a tile showing the loading indicator")
        spinner = driver.execute_script("""
            var t = document.querySelector('#carousel .tile.loading');
            return [getComputedStyle(t, '::after').content, getComputedStyle(t.querySelector('img')).opacity];""")
        assert spinner[0] not in ("none", "normal"), f"no ::after indicator on a loading tile: {spinner}"
        settled_on(driver, len(ALBUMS) - 1)
        wait(driver, lambda d: d.execute_script("""
            var tiles = document.querySelectorAll('#carousel .tile');
            for (var i = 0; i < tiles.length; i++) {
                var img = tiles[i].querySelector('img'), box = tiles[i].getBoundingClientRect();
                var visible = box.right > 0 && box.left < innerWidth;
                if (visible && (!img.complete || !img.naturalWidth)) return false;
                if (img.complete && img.naturalWidth && tiles[i].classList.contains('loading')) return false;
            }
            return true;"""), "every visible image loaded and no loaded tile still spinning", deadline=30)
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                               {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def page_changes_never_stall(driver):
    """gallery serve's live-reload stream must not keep a connection per visited page: Chromium
    allows six per host, and the seventh page would wait a minute for one."""
    for visit in range(10):
        start = time.monotonic()
        driver.get(BASE + ("" if visit % 2 == 0 else ALBUMS[visit]["url"]))
        seconds = time.monotonic() - start
        assert seconds < 5, f"page {visit + 1} took {seconds:.1f} s to load"


def themes_keep_text_readable(driver):
    """Light and dark themes through prefers-color-scheme, each with WCAG AA contrast (4.5:1) for
    every piece of text the pages show: headings, links, buttons, the table, the footer."""
    backgrounds = {}
    try:
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for path in ("", ALBUMS[2]["url"]):
                open_fresh(driver, path)
                found = driver.execute_script("""
                    function rgb(text) { var m = text.match(/[0-9.]+/g); return m ? m.slice(0, 4).map(Number) : [0, 0, 0, 0]; }
                    function background(element) {
                        for (var e = element; e; e = e.parentElement) {
                            var c = rgb(getComputedStyle(e).backgroundColor);
                            if (c.length < 4 || c[3] > 0) return c.slice(0, 3);
                        }
                        return [255, 255, 255];
                    }
                    function luminance(c) {
                        var l = c.map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
                        return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
                    }
                    var worst = null, checked = 0;
                    document.querySelectorAll('h1, h1 *, p, a, button, th, td, caption, .site-title').forEach(function (e) {
                        if (!e.textContent.trim() || !e.getClientRects().length) return;
                        var a = luminance(rgb(getComputedStyle(e).color)), b = luminance(background(e));
                        var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
                        checked++;
                        if (!worst || ratio < worst[0]) worst = [ratio, e.tagName + '.' + e.className + ': ' + e.textContent.trim().slice(0, 30)];
                    });
                    return [checked, worst, getComputedStyle(document.body).backgroundColor];""")
                checked, worst, body = found
                assert checked >= 10, f"{scheme}: only {checked} text elements found"
                assert worst[0] >= 4.5, f"{scheme} theme, /{path}: contrast {worst[0]:.2f} for {worst[1]}"
                backgrounds[scheme] = body
        assert backgrounds["light"] != backgrounds["dark"], f"the dark theme does not change the page: {backgrounds}"
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def follows_the_aria_carousel_pattern(driver):
    """The WAI-ARIA carousel pattern: a labelled region with aria-roledescription; the slides are
    the items of the strip's list, each with its place in the whole ("N of M" through
    aria-posinset and aria-setsize, also on the tiles the script adds); the scrolling viewport a
    labelled group; native previous and next buttons shown once the script runs; and a visible
    focus ring (at least 2 px of outline) on everything the Tab key reaches in and around it:
    the buttons and the selected tile, the strip's one stop (the viewport is one only without
    the script, see a11y.py)."""
    open_fresh(driver)
    settled_on(driver, 0)
    driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(Keys.END)
    settled_on(driver, len(ALBUMS) - 1)
    found = driver.execute_script("""
        var c = document.getElementById('carousel'), problems = [];
        if (c.getAttribute('aria-roledescription') !== 'carousel' || !c.getAttribute('aria-label')) problems.push('region');
        var v = c.querySelector('.viewport');
        if (v.getAttribute('role') !== 'group' || !v.getAttribute('aria-label')) problems.push('viewport');
        var tiles = c.querySelectorAll('.tile'), count = +c.dataset.count;
        tiles.forEach(function (t) {
            if (t.tagName !== 'LI' || t.parentElement.tagName !== 'OL' || t.hasAttribute('role')
                || t.getAttribute('aria-posinset') !== String(+t.dataset.index + 1) || t.getAttribute('aria-setsize') !== String(count)) problems.push(t.outerHTML.slice(0, 80));
        });
        var current = c.querySelector('.tile.current a');
        if (!current || current.getAttribute('aria-current') !== 'true') problems.push('aria-current on the index: ' + (current && current.getAttribute('aria-current')));
        ['.carousel-previous', '.carousel-next'].forEach(function (s) {
            var b = c.querySelector(s);
            if (!b || b.tagName !== 'BUTTON' || b.hidden || !b.textContent.trim()) problems.push(s);
        });
        return [tiles.length, problems];""")
    assert found[0] >= 5 and not found[1], f"{found[0]} tiles; not as the pattern says: {found[1]}"
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    reached = set()
    for _ in range(20):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        focused = driver.execute_script("""
            var e = document.activeElement, s = getComputedStyle(e);
            var kind = e.closest('.tile') ? 'tile' : e.classList.contains('viewport') ? 'viewport' : e.tagName === 'BUTTON' ? 'button' : e.tagName;
            return [kind, s.outlineStyle, parseFloat(s.outlineWidth), e.outerHTML.slice(0, 60)];""")
        kind, style, width, html = focused
        if kind in ("BODY", "HTML"):
            continue  # the Tab key wrapped past the page's last link
        assert style != "none" and width >= 2, f"no visible focus on {html}: outline {style} {width}px"
        if kind == "tile":
            # Told apart from the selection by shape, not only by colour.
            selection = driver.execute_script("return getComputedStyle(document.querySelector('#carousel .tile.current:not(:focus-within) a') || document.body).outlineStyle;")
            assert style != selection or driver.execute_script("return getComputedStyle(document.activeElement).boxShadow;") != "none", \
                f"a focused tile looks like the selected one ({style})"
        reached.add(kind)
        if {"button", "tile"} <= reached:
            break
    assert {"button", "tile"} <= reached and "viewport" not in reached, f"Tab reached {sorted(reached)}"


def reduced_motion_moves_at_once(driver):
    """With prefers-reduced-motion, selecting an album jumps there instead of scrolling smoothly."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        open_fresh(driver)
        settled_on(driver, 0)
        strip = Strip(driver)
        positions = driver.execute_script("""
            var v = document.querySelector('#carousel .viewport'), seen = [];
            v.addEventListener('scroll', function () { seen.push(v.scrollLeft); });
            v.dispatchEvent(new KeyboardEvent('keydown', {key: 'End', bubbles: true}));
            return new Promise(function (done) { setTimeout(function () { done(seen); }, 400); });""")
        settled_on(driver, len(ALBUMS) - 1)
        between = [x for x in positions if 1 < x < strip.target(len(ALBUMS) - 1) - 1]
        assert not between, f"the strip passed through {len(between)} positions on its way: {between[:5]}"
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def axe_finds_no_violations(driver):
    """axe-core (the engine of Lighthouse's and browsers' accessibility audits, from the
    axe-playwright-python package that script/setup installs) finds nothing on any kind of page,
    in the light and the dark theme, before and after the script has moved the selection."""
    spec = importlib.util.find_spec("axe_playwright_python")
    assert spec and spec.submodule_search_locations, "axe-playwright-python is not installed (script/setup --test)"
    with open(os.path.join(spec.submodule_search_locations[0], "axe.min.js"), encoding="utf-8") as file:
        axe = file.read()
    found = []
    try:
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for path in ("", "page/2/", ALBUMS[3]["url"], "404.html"):
                open_fresh(driver, path)
                if path != "404.html":
                    settled_on(driver, current(driver))
                    driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(Keys.ARROW_RIGHT)
                    time.sleep(0.5)
                driver.execute_script(axe)
                violations = driver.execute_async_script("""
                    var done = arguments[arguments.length - 1];
                    axe.run(document).then(function (result) {
                        done(result.violations.map(function (v) { return v.id + ' (' + v.impact + '): ' + v.nodes[0].html.slice(0, 90); }));
                    }, function (error) { done(['axe failed: ' + error]); });""")
                found += [f"{scheme} /{path}: {violation}" for violation in violations]
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert not found, "; ".join(found)


def screenshots(driver):
    for width, height in ((320, 640), (1280, 800)):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        for name, path in (("index", ""), ("album", ALBUMS[len(ALBUMS) // 2]["url"])):
            open_fresh(driver, path)
            settled_on(driver, 0 if name == "index" else len(ALBUMS) // 2)
            overflow = driver.execute_script("return document.documentElement.scrollWidth - innerWidth;")
            assert overflow <= 0, f"{name} at {width} px scrolls sideways by {overflow} px"
            driver.save_screenshot(os.path.join(ARTIFACTS, f"{name}-{width}.png"))


def no_console_errors(driver):
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, "console errors: " + json.dumps(errors)


def works_without_javascript():
    driver = chromium(javascript=False)
    try:
        driver.get(BASE)
        viewport = driver.find_element(By.CSS_SELECTOR, "#carousel .viewport")
        assert "js" not in (driver.find_element(By.ID, "carousel").get_attribute("class") or "").split()
        snap = viewport.value_of_css_property("scroll-snap-type")
        assert snap.startswith("x"), f"scroll-snap-type is {snap!r}"
        assert viewport.value_of_css_property("overflow-x") in ("auto", "scroll")
        driver.find_element(By.CSS_SELECTOR, '#carousel .tile[data-index="3"] a').click()
        wait(driver, lambda d: d.current_url == BASE + ALBUMS[3]["url"], "the tile's link to open its album page")
        assert driver.find_element(By.CSS_SELECTOR, "#carousel .tile.current").get_attribute("data-index") == "3"
        assert driver.find_element(By.CSS_SELECTOR, "#details [data-field=title]").text == ALBUMS[3]["title"]
        driver.find_element(By.CSS_SELECTOR, 'a[rel="next"]').click()
        wait(driver, lambda d: d.current_url == BASE + ALBUMS[4]["url"], "the next link to open the next album")
    finally:
        driver.quit()


def placeholder_albums_keep_the_page_still(driver):
    """An album page shows the placeholder where an album has no cover, so selecting an album
    with one, or without, shows its cover and moves nothing below it; the previous and next
    buttons say when they can go no further."""
    start = 37  # album 38: no cover
    driver.get(BASE + ALBUMS[start]["url"])
    settled_on(driver, start)
    state = lambda d: d.execute_script("""
        var c = document.querySelector('main img.cover'), s = document.querySelector('#carousel .viewport');
        return c ? [c.getAttribute('src'), c.alt, Math.round(s.getBoundingClientRect().top)] : null;""")
    first = state(driver)
    assert first is not None, "the album page of an album without a cover has no cover image"
    assert "placeholder" in first[0], f"cover {first[0]} is not the placeholder"
    assert first[1] == words(NO_COVER_FOR, ALBUMS[start]), f"alt {first[1]!r}"
    driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(Keys.ARROW_LEFT)
    settled_on(driver, start - 1)
    wait(driver, lambda d: state(d)[0] == BASE + ALBUMS[start - 1]["cover"],
         f"album {start - 1}'s cover (saw {state(driver)})")
    after = state(driver)
    assert after[1] == words(COVER_OF, ALBUMS[start - 1]), f"alt {after[1]!r}"
    assert after[2] == first[2], f"the strip moved from y = {first[2]} to y = {after[2]}"
    disabled = lambda d: d.execute_script("""
        return [].map.call(document.querySelectorAll('.carousel-previous, .carousel-next'),
                           function (b) { return b.getAttribute('aria-disabled') === 'true'; });""")
    assert disabled(driver) == [False, False], f"buttons in the middle: {disabled(driver)}"
    driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(Keys.END)
    settled_on(driver, len(ALBUMS) - 1)
    wait(driver, lambda d: disabled(d) == [False, True], f"the next button disabled at the end (saw {disabled(driver)})")
    driver.find_element(By.CSS_SELECTOR, ".carousel-next").click()
    time.sleep(0.3)
    assert current(driver) == len(ALBUMS) - 1, f"the disabled next button moved to {current(driver)}"


def right_to_left_titles_read_right_to_left(driver):
    """A right-to-left title is isolated wherever the page shows it (the heading, the details
    table, the next link of the album before): its closing "!" is drawn at its left end, where
    a reader of Arabic looks for it, not on the right after it as in a left-to-right line."""
    index = next(i for i, album in enumerate(ALBUMS) if album["title"].endswith("!") and not album["title"].isascii())
    ends = """
        var r = document.createRange();
        return [].map.call(arguments[0], function (selector) {
          var el = document.querySelector(selector), t = el && el.firstChild;
          if (!t || t.nodeType !== 3) return [selector, null];
          r.setStart(t, t.data.length - 1); r.setEnd(t, t.data.length); var bang = r.getBoundingClientRect().left;
          r.setStart(t, 0); r.setEnd(t, 1); var first = r.getBoundingClientRect().left;
          return [selector, bang < first];
        });"""
    driver.get(BASE + ALBUMS[index]["url"])
    settled_on(driver, index)
    sides = driver.execute_script(ends, ["h1 [data-field=title]", "#details [data-field=title]"])
    driver.get(BASE + ALBUMS[index - 1]["url"])
    settled_on(driver, index - 1)
    sides += driver.execute_script(ends, ["a[rel=next] bdi"])
    # The page follows the selection: the links the script writes isolate the title too.
    driver.get(BASE + ALBUMS[index - 2]["url"])
    settled_on(driver, index - 2)
    driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(Keys.ARROW_RIGHT)
    settled_on(driver, index - 1)
    wait(driver, lambda d: d.execute_script("var b = document.querySelector('a[rel=next] bdi'); return b && b.textContent;") == ALBUMS[index]["title"],
         "the next link to show the right-to-left title after the page followed the selection")
    sides += [["a[rel=next] bdi (written by the script)"] + driver.execute_script(ends, ["a[rel=next] bdi"])[0][1:]]
    link = driver.execute_script("return document.querySelector('a[rel=next]').textContent;")
    assert link == ALBUMS[index]["title"] + " →", f"the next link reads {link!r}"
    wrong = [selector for selector, left in sides if left is not True]
    assert not wrong, f"right-to-left text drawn left to right in {wrong} ({sides})"


def own_fields_follow_the_selection(driver):
    """A details row of an album's own field (params: a shop's price) shows the selected
    album's, on an index page and as an album page follows the selection; an album without
    one leaves the row empty, not showing the last album's."""
    price = lambda d: d.execute_script("return document.querySelector('#details [data-field=price]').textContent;")
    expected = lambda i: (ALBUMS[i].get("params") or {}).get("price", "")
    start = 35
    driver.get(BASE + ALBUMS[start]["url"])
    settled_on(driver, start)
    assert price(driver) == expected(start), f"album {start}'s page shows {price(driver)!r}"
    for i in (start + 1, start + 2):  # 37, then 38, which has no price
        driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(Keys.ARROW_RIGHT)
        settled_on(driver, i)
        wait(driver, lambda d: price(d) == expected(i), f"album {i}'s price {expected(i)!r} (saw {price(driver)!r})")
    assert expected(start + 2) == "", "album 38 of the test site should have no price"


def the_script_writes_the_sites_words(driver):
    """The words the script writes (the status line screen readers hear, the alt text of the
    tiles it adds from the data files) are the site's [text], not English."""
    open_fresh(driver)
    settled_on(driver, 0)
    viewport = driver.find_element(By.CSS_SELECTOR, "#carousel .viewport")
    viewport.send_keys(Keys.ARROW_RIGHT)
    settled_on(driver, 1)
    status = lambda d: d.execute_script("return document.querySelector('.carousel-status').textContent;")
    expected = words(STATUS, ALBUMS[1], number=2, count=len(ALBUMS))
    wait(driver, lambda d: status(d) == expected, f"the status line {expected!r} (saw {status(driver)!r})")
    # Album 37 is not on index page 1: its tile is made by the script when the strip nears it.
    viewport.send_keys(Keys.END)
    settled_on(driver, len(ALBUMS) - 1)
    alt = lambda d: d.execute_script("var i = document.querySelector('.tile[data-index=\"36\"] img'); return i && i.alt;")
    wait(driver, lambda d: alt(d) is not None, "the script to add album 37's tile")
    assert alt(driver) == words(ALBUM_BY, ALBUMS[36]), f"album 37's tile reads {alt(driver)!r}"


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    failures = 0
    driver = chromium()
    checks = [click_selects_and_centres, scroll_end_snaps_to_the_formula, a_new_width_keeps_the_selection,
              the_strip_stays_at_either_end, keys_move_between_albums, a_failed_data_file_is_asked_for_again,
              data_files_are_asked_of_the_server,
              album_page_follows_the_selection, the_title_follows_an_album_of_two_spaces, placeholder_albums_keep_the_page_still,
              right_to_left_titles_read_right_to_left, own_fields_follow_the_selection, the_script_writes_the_sites_words,
              focus_follows_the_selection,
              deep_link_opens_its_album_centred, reload_restores_the_last_album,
              spinner_goes_once_the_image_has_loaded, page_changes_never_stall, themes_keep_text_readable,
              follows_the_aria_carousel_pattern, axe_finds_no_violations, reduced_motion_moves_at_once, screenshots,
              no_console_errors]
    try:
        for check in checks:
            failures += not report.run(check, driver)
    finally:
        driver.quit()
    failures += not report.run(works_without_javascript)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
