#!/usr/bin/env python3
"""The carousel script's accessibility in a real browser: headless Chromium through WebDriver.

Usage: a11y.py BASE_URL

BASE_URL serves the site of BrowserTests.site() (40 albums, index pages of 20, album pages of
±5 neighbours), so most tiles are drawn by the script from the data files. Each check is one
finding of a WCAG 2.2 AA audit of the script, and fails with the script that had it:

- the tiles' DOM order is the albums' order, however the strip has scrolled (SC 1.3.2).

Each check prints `ok NAME` or `FAIL NAME: why`; the exit status is 1 if any failed.
"""
import json
import os
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import report

BASE = sys.argv[1].rstrip("/") + "/"
ALBUMS = json.load(urllib.request.urlopen(BASE + "albums.json"))["albums"]
LAST = len(ALBUMS) - 1
DEADLINE = 10  # seconds any one wait may take


def chromium():
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--hide-scrollbars", "--window-size=1280,800"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    # Whether the strip may still be scrolling (as designer.py): a scroll is over at its
    # scrollend, or half a second after its last scroll event.
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        var scrolling = false, scrolled = 0;
        document.addEventListener('scroll', function () { scrolling = true; scrolled = performance.now(); }, true);
        document.addEventListener('scrollend', function () { scrolling = false; }, true);
        window.stillScrolling = function () { return scrolling && performance.now() - scrolled < 500; };"""})
    return driver


def wait(driver, condition, what, deadline=DEADLINE):
    return report.wait(lambda: condition(driver), what, deadline)


def open_fresh(driver, path=""):
    """Opens a page as a first visit: no remembered album in localStorage."""
    origin = "/".join(BASE.split("/", 3)[:3])
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"})
    driver.get(BASE + path)




def current(driver):
    return driver.execute_script(
        "var t = document.querySelector('#carousel .tile.current'); return t ? +t.dataset.index : null;")




def off_centre(driver, index):
    """How far the strip is from centring album `index` by the seed's formula."""
    return driver.execute_script("""
        var c = document.getElementById('carousel'), d = c.dataset, v = c.querySelector('.viewport'), i = arguments[0];
        var x = +d.offset + +d.padding + i * (+d.dimension + 2 * +d.padding) + +d.dimension / 2 - v.clientWidth / 2;
        return Math.abs(v.scrollLeft - Math.max(0, Math.min(v.scrollWidth - v.clientWidth, x)));""", index)


def settled_on(driver, index):
    """Waits until album `index` is current, centred and in the details table, the scroll over."""
    wait(driver, lambda d: current(d) == index and off_centre(d, index) <= 1 and d.execute_script(
        "return !stillScrolling() && document.querySelector('#details [data-field=title]').textContent;") == ALBUMS[index]["title"],
         f"album {index} to be current, centred and in the table (current {current(driver)}, {off_centre(driver, index)} px off)")


def viewport(driver):
    return driver.find_element(By.CSS_SELECTOR, "#carousel .viewport")


def tile_order(driver):
    return driver.execute_script("return [].map.call(document.querySelectorAll('#carousel .strip > .tile'), function (t) { return +t.dataset.index; });")


def tiles_are_in_album_order(driver):
    """SC 1.3.2: a screen reader reads the strip's list in DOM order, so the tiles the script
    adds as the strip scrolls go in their album's place, not at the end: after End, Home and a
    jump to the middle, the list is in ascending album order (and each item's "N of M" too)."""
    open_fresh(driver)
    settled_on(driver, 0)
    for key, index, holds in ((Keys.END, LAST, LAST - 5), (Keys.HOME, 0, 5), (Keys.END, LAST, LAST - 5)):
        viewport(driver).send_keys(key)
        settled_on(driver, index)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#carousel .tile[data-index="{holds}"]'),
             f"the script to draw album {holds}'s tile")
        order = tile_order(driver)
        assert order == sorted(order), f"after {key!r} the list reads albums {order}"
    # A jump into the middle from a strip that holds both ends' tiles.
    driver.execute_script("document.querySelector('#carousel .viewport').scrollTo({left: arguments[0], behavior: 'instant'});",
                          driver.execute_script("var v = document.querySelector('#carousel .viewport'); return v.scrollWidth / 2 - v.clientWidth / 2;"))
    wait(driver, lambda d: d.execute_script("return !stillScrolling();") and current(d) not in (0, LAST), "the strip to settle in the middle")
    time.sleep(0.5)
    order = tile_order(driver)
    assert order == sorted(order), f"after a scroll to the middle the list reads albums {order}"
    positions = driver.execute_script("return [].map.call(document.querySelectorAll('#carousel .strip > .tile'), function (t) { return +t.getAttribute('aria-posinset'); });")
    assert positions == sorted(positions), f"the list's items are numbered {positions}"






















def no_console_errors(driver):
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, "console errors: " + json.dumps(errors)


def main():
    failures = 0
    driver = chromium()
    try:
        for check in [tiles_are_in_album_order, no_console_errors]:
            failures += not report.run(check, driver)
    finally:
        driver.quit()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
