#!/usr/bin/env python3
"""The built-in stylesheet in a real browser: headless Chromium driven through WebDriver.

Usage: layout.py BASE_URL HEBREW_BASE_URL

BASE_URL serves a German site (longer button labels) with an album whose title has no space
in 78 letters (BrowserLayoutTests); HEBREW_BASE_URL the same albums with `language = "he"`.
Each check prints `ok NAME` or `FAIL NAME: why`; the exit status is 1 if any failed.

- At 320 CSS px nothing widens the page: the carousel's buttons wrap, and a neighbour's long
  title wraps in the album page's links (WCAG 1.4.10, reflow).
- In forced colours (Windows High Contrast), which drop box-shadow, the focused current tile's
  ring differs from the selection's (WCAG 2.4.7).
- A right-to-left site's page is `dir="rtl"`, and its strip still reads and scrolls left to
  right: End selects the last album and scrolls the strip to its right end; below it, the album
  page's previous link is on the right and the next on the left, their arrows mirrored.
- A value in the other direction (a Hebrew title on the German site) sits by its label.
"""
import json
import sys
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import chrome
import report

BASE = sys.argv[1].rstrip("/") + "/"
HEBREW = sys.argv[2].rstrip("/") + "/"
DEADLINE = 30


def chromium(width):
    return chrome.chromium(width=width)

def overflow(driver):
    """How far the page is wider than its viewport, in CSS px."""
    return driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth;")


def nothing_widens_the_page_at_320_px(driver):
    albums = json.load(urllib.request.urlopen(BASE + "albums.json"))["albums"]
    long = next(i for i, a in enumerate(albums) if " " not in a["title"] and len(a["title"]) > 60)
    pages = ["", albums[long + 1]["url"], albums[long - 1]["url"], "albums/does-not-exist/"]
    for path in pages:
        driver.get(BASE + path)
        report.wait(lambda: driver.execute_script("return document.readyState") == "complete", f"{path} to load", DEADLINE)
        # The buttons are shown by the script.
        if path != "albums/does-not-exist/":
            report.wait(lambda: driver.execute_script(
                "var b = document.querySelector('.carousel-next'); return b && !b.hidden && b.offsetWidth > 0;"), "the buttons", DEADLINE)
        wider = overflow(driver)
        assert wider <= 0, f"/{path} is {wider} px wider than the 320 px viewport"


def forced_colours_tell_focus_from_the_selection(driver):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "forced-colors", "value": "active"}]})
    try:
        driver.get(BASE)
        report.wait(lambda: driver.execute_script("return !!document.querySelector('#carousel .tile.current a');"), "the current tile", DEADLINE)
        ring = "var s = getComputedStyle(document.querySelector('#carousel .tile.current a')); return [s.outlineStyle, s.outlineWidth, s.outlineOffset].join(' ');"
        unfocused = driver.execute_script(ring)
        driver.execute_script("document.querySelector('#carousel .tile.current a').focus({focusVisible: true});")
        report.wait(lambda: driver.execute_script("return document.activeElement.matches('#carousel .tile.current a:focus-visible');"), "the tile to have visible focus", DEADLINE)
        focused = driver.execute_script(ring)
        assert focused != unfocused, f"in forced colours the focused current tile's ring is the selection's: {focused}"
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def a_right_to_left_page_keeps_its_strip_left_to_right(driver):
    driver.get(HEBREW)
    report.wait(lambda: driver.execute_script("return !!document.querySelector('#carousel.js');"), "the script", DEADLINE)
    assert driver.execute_script("return document.documentElement.dir;") == "rtl", "the page is not dir=rtl"
    assert driver.execute_script("return getComputedStyle(document.body).direction;") == "rtl"
    assert driver.execute_script("return getComputedStyle(document.querySelector('#carousel .viewport')).direction;") == "ltr"
    last = int(driver.execute_script("return +document.getElementById('carousel').dataset.count;")) - 1
    driver.find_element(By.CSS_SELECTOR, "#carousel .viewport").send_keys(Keys.END)
    report.wait(lambda: driver.execute_script(
        "var v = document.querySelector('#carousel .viewport'), t = document.querySelector('#carousel .tile.current');"
        "return t && +t.dataset.index === arguments[0] && Math.abs(v.scrollLeft - (v.scrollWidth - v.clientWidth)) <= 1;", last),
        "End to select the last album and scroll the strip to its right end", DEADLINE)
    previous, following = driver.execute_script(
        "return [document.querySelector('.carousel-previous').getBoundingClientRect().left, document.querySelector('.carousel-next').getBoundingClientRect().left];")
    assert previous < following, "the previous album's button is not on the left"
    # Below the strip the page reads right to left: the previous album's link on the right, the
    # next one's on the left, their arrows pointing outwards; the arrows are not read aloud.
    driver.get(HEBREW + "albums/album-6/")
    links = driver.execute_script("""
        var rect = function (s) { var e = document.querySelector(s); return e && e.getBoundingClientRect(); };
        var prev = rect('.album-nav a[rel=prev]'), next = rect('.album-nav a[rel=next]');
        var arrows = [].map.call(document.querySelectorAll('.album-nav .arrow'), function (a) {
            return [a.getAttribute('aria-hidden'), getComputedStyle(a).transform]; });
        return {prev: prev && [prev.left, prev.right], next: next && [next.left, next.right], arrows: arrows};""")
    assert links["prev"] and links["next"] and links["next"][1] <= links["prev"][0], f"the album links on a right-to-left page: {links}"
    assert links["arrows"] == [["true", "matrix(-1, 0, 0, 1, 0, 0)"]] * 2, f"the arrows: {links['arrows']}"


def rings_have_room_with_a_small_padding(driver):
    """WCAG 2.4.7, 2.4.11: the HEBREW site's tiles are 2 px from the strip's edges; the focus and
    selection rings, 9 px beyond a tile, are neither clipped by the viewport above and below
    nor covered by the neighbouring tiles."""
    driver.get(HEBREW)
    report.wait(lambda: driver.execute_script("return !!document.querySelector('#carousel.js');"), "the script", DEADLINE)
    assert driver.execute_script("return document.getElementById('carousel').dataset.padding;") == "2"
    found = driver.execute_script("""
        var link = document.querySelector('#carousel .tile.current a'); link.focus();
        var v = document.querySelector('#carousel .viewport').getBoundingClientRect(), t = link.getBoundingClientRect();
        var next = link.closest('.tile').nextElementSibling;
        return {above: t.top - v.top, below: v.bottom - t.bottom,
                current: +getComputedStyle(link.closest('.tile')).zIndex || 0, neighbour: next ? +getComputedStyle(next).zIndex || 0 : 0};""")
    assert found["above"] >= 9 and found["below"] >= 9, f"the rings are clipped: {found}"
    assert found["current"] > found["neighbour"], f"a neighbour is drawn over the rings: {found}"


def a_value_in_the_other_direction_sits_by_its_label(driver):
    """The German (left-to-right) site's album of a Hebrew title: its value in the details table
    starts by its label, not at the far side of its cell (dir="auto" made its start the right)."""
    albums = json.load(urllib.request.urlopen(BASE + "albums.json"))["albums"]
    hebrew = next(a for a in albums if a["title"] == "שלום עליכם")
    driver.get(BASE + hebrew["url"])
    report.wait(lambda: driver.execute_script("return !!document.querySelector('#details td[data-field=title]');"), "the details", DEADLINE)
    gap = driver.execute_script("""
        var td = document.querySelector('#details td[data-field=title]'), range = document.createRange();
        range.selectNodeContents(td);
        return range.getBoundingClientRect().left - td.getBoundingClientRect().left;""")
    assert 0 <= gap < 4, f"the Hebrew title starts {gap:.0f} px from its cell's start, away from its label"


def main():
    narrow = chromium(320)
    wide = chromium(1280)
    try:
        results = [
            report.run(nothing_widens_the_page_at_320_px, narrow),
            report.run(forced_colours_tell_focus_from_the_selection, wide),
            report.run(a_right_to_left_page_keeps_its_strip_left_to_right, wide),
            report.run(rings_have_room_with_a_small_padding, wide),
            report.run(a_value_in_the_other_direction_sits_by_its_label, wide),
        ]
    finally:
        narrow.quit()
        wide.quit()
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
