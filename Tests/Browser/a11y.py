#!/usr/bin/env python3
"""The carousel script's accessibility in a real browser: headless Chromium through WebDriver.

Usage: a11y.py BASE_URL

BASE_URL serves the site of BrowserTests.site() (40 albums, index pages of 20, album pages of
±5 neighbours), so most tiles are drawn by the script from the data files. Each check is one
finding of a WCAG 2.2 AA audit of the script, and fails with the script that had it:

- the tiles' DOM order is the albums' order, however the strip has scrolled (SC 1.3.2);
- the focus stays in the strip and moves with the selection, whatever scrolled it (SC 2.4.3);
- the status line speaks once, after the selection has come to rest, and only when something
  else did not already say it (SC 4.1.3);
- prefers-reduced-motion is followed when it changes after the page has loaded;
- the strip is one stop for the Tab key (and, without the script, the scrolling viewport is).

Each check prints `ok NAME` or `FAIL NAME: why`; the exit status is 1 if any failed.
"""
import json
import sys
import time
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import chrome
import report

BASE = sys.argv[1].rstrip("/") + "/"
ALBUMS = json.load(urllib.request.urlopen(BASE + "albums.json"))["albums"]
LAST = len(ALBUMS) - 1
DEADLINE = 30  # seconds any one wait may take
QUIET = 1.0  # seconds after which a status line still to come would have been written


def chromium(javascript=True):
    return chrome.chromium(javascript=javascript, watch_scrolling=True)

def wait(driver, condition, what, deadline=DEADLINE):
    return report.wait(lambda: condition(driver), what, deadline)


def open_fresh(driver, path=""):
    """Opens a page as a first visit: no remembered album in localStorage."""
    origin = "/".join(BASE.split("/", 3)[:3])
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"})
    driver.get(BASE + path)


def reduce_motion(driver, on):
    features = [{"name": "prefers-reduced-motion", "value": "reduce"}] if on else []
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


def current(driver):
    return driver.execute_script(
        "var t = document.querySelector('#carousel .tile.current'); return t ? +t.dataset.index : null;")


def focused(driver):
    """The index of the tile that holds the focus, or the focused element's tag name."""
    return driver.execute_script("""
        var e = document.activeElement, t = e && e.closest('#carousel .tile');
        return t ? +t.dataset.index : e ? e.tagName : null;""")


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


def watch_the_focus(driver):
    """Records, in the page, every moment the focus is not on a tile of the strip: a focusout
    with no element to go to, and any animation frame in which it is elsewhere."""
    driver.execute_script("""
        window.lost = [];
        var note = function (what) { if (lost.length < 20) lost.push(what); };
        document.addEventListener('focusout', function (e) {
            var t = e.target.closest && e.target.closest('#carousel .tile');
            if (t && !e.relatedTarget) note('focusout from tile ' + t.dataset.index + ' to nothing');
        }, true);
        (function sample() {
            var e = document.activeElement;
            // The viewport may hold it while the selected tile waits for its albums.
            var waiting = e && e.classList.contains('viewport') && document.getElementById('carousel').classList.contains('waiting');
            if (!e || !(e.closest('#carousel .strip') || waiting)) note('focus on ' + (e ? e.tagName : 'nothing') + ' at ' + Math.round(performance.now()));
            requestAnimationFrame(sample);
        })();""")


def lost(driver):
    return driver.execute_script("return window.lost;")


def focus_stays_with_the_selection(driver):
    """SC 2.4.3: with the focus on a tile, a scroll the script did not start (the mouse wheel)
    moves the selection, and the focus with it; the tile that holds the focus is never taken
    out of the document, so it is never dropped to the page's body, neither while the wheel
    scrolls nor while End waits for the last album's tile to be drawn."""
    open_fresh(driver)
    settled_on(driver, 0)
    driver.execute_script("document.querySelector('#carousel .tile.current a').focus();")
    assert focused(driver) == 0, f"the focus is on {focused(driver)}"
    watch_the_focus(driver)
    ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(viewport(driver)), 6000, 0).perform()
    wait(driver, lambda d: d.execute_script("return !stillScrolling();") and (current(d) or 0) > 20 and focused(d) == current(d),
         "the wheel to select an album near the end, with the focus on it")
    assert not lost(driver), f"the focus left the strip while the wheel scrolled it: {lost(driver)}"
    ActionChains(driver).send_keys(Keys.HOME).perform()
    settled_on(driver, 0)
    wait(driver, lambda d: focused(d) == 0, f"the focus on album 0 after Home (on {focused(driver)})")
    ActionChains(driver).send_keys(Keys.END).perform()
    settled_on(driver, LAST)
    wait(driver, lambda d: focused(d) == LAST, f"the focus on the last album after End (on {focused(driver)})")
    assert not lost(driver), f"the focus left the strip on Home and End: {lost(driver)}"


def watch_the_status(driver):
    """Records, in the page, the status line's text each time the script writes it."""
    driver.execute_script("""
        window.said = [];
        var s = document.querySelector('#carousel .carousel-status');
        new MutationObserver(function () { said.push(s.textContent); }).observe(s, {childList: true, characterData: true, subtree: true});""")


def said(driver, one_due=False):
    """What the status line was set to since the last call; with `one_due`, once a write has
    come (a loaded machine runs the page's 400 ms timer late), and QUIET more for any after it."""
    if one_due:
        wait(driver, lambda d: d.execute_script("return window.said.length > 0;"), "the status line to be written")
    time.sleep(QUIET)
    return driver.execute_script("var s = window.said; window.said = []; return s;")


def status_text(driver, index):
    pattern = driver.execute_script("return document.getElementById('carousel').dataset.status;")
    return pattern.format(**{**ALBUMS[index], "number": index + 1, "count": len(ALBUMS)})


def the_status_speaks_once(driver):
    """SC 4.1.3: the status line ("N of M: Title by Artist"), a polite live region, is written
    once the selection has come to rest, not for every album a run of keys passes; not again
    with the text it has (the next button at the last album); and not for a selection the focus
    has moved to, whose link's name (and its item's "N of M") the screen reader says already.
    Ten keys 80 ms apart, with reduced motion, so each key's scroll is over before the next."""
    reduce_motion(driver, True)
    try:
        open_fresh(driver)
        settled_on(driver, 0)
        watch_the_status(driver)
        driver.execute_script("document.querySelector('#carousel .viewport').focus();")
        keys = ActionChains(driver)
        for _ in range(10):
            keys.send_keys(Keys.ARROW_RIGHT).pause(0.08)
        keys.perform()
        settled_on(driver, 10)
        writes = said(driver, one_due=True)
        assert writes == [status_text(driver, 10)], f"ten quick keys wrote the status {len(writes)} times: {writes}"
        ActionChains(driver).send_keys(Keys.END).perform()
        settled_on(driver, LAST)
        writes = said(driver, one_due=True)
        assert writes == [status_text(driver, LAST)], f"End wrote the status as {writes}"
        for _ in range(2):
            driver.find_element(By.CSS_SELECTOR, "#carousel .carousel-next").click()
        writes = said(driver)
        assert current(driver) == LAST and not writes, f"the next button at the last album wrote {writes}"
        driver.execute_script("document.querySelector('#carousel .tile.current a').focus();")
        ActionChains(driver).send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT).perform()
        settled_on(driver, LAST - 2)
        wait(driver, lambda d: focused(d) == LAST - 2, f"the focus on album {LAST - 2} (on {focused(driver)})")
        writes = said(driver)
        assert not any(writes), f"with the focus on the selected tile the status still said {writes}"
    finally:
        reduce_motion(driver, False)


def reduced_motion_is_followed_when_it_changes(driver):
    """prefers-reduced-motion turned on after the page has loaded (a setting changed while it is
    open) is followed: End jumps to the last album instead of scrolling smoothly there."""
    open_fresh(driver)
    settled_on(driver, 0)
    reduce_motion(driver, True)
    try:
        assert driver.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches;")
        positions = driver.execute_script("""
            var v = document.querySelector('#carousel .viewport'), seen = [];
            v.addEventListener('scroll', function () { seen.push(v.scrollLeft); });
            v.dispatchEvent(new KeyboardEvent('keydown', {key: 'End', bubbles: true}));
            return new Promise(function (done) { setTimeout(function () { done(seen); }, 400); });""")
        settled_on(driver, LAST)
        end = driver.execute_script("var v = document.querySelector('#carousel .viewport'); return v.scrollWidth - v.clientWidth;")
        between = [x for x in positions if 1 < x < end - 1]
        assert not between, f"the strip passed through {len(between)} positions on its way: {between[:5]}"
    finally:
        reduce_motion(driver, False)


def strip_state(driver):
    return driver.execute_script("""
        var e = document.activeElement, c = document.getElementById('carousel'), t = e && e.closest('#carousel .tile');
        return {focus: t ? 'tile ' + t.dataset.index : e.classList.contains('viewport') ? 'viewport' : e.tagName,
                busy: c.querySelector('.strip').getAttribute('aria-busy'), waiting: c.classList.contains('waiting')};""")


def a_far_jump_on_a_slow_network(driver):
    """SC 2.4.7, 4.1.2: End while the last albums' data is slow to come (2.5 s latency, no
    cache): the focus is never left on the tile scrolled away (the viewport holds it; the strip
    is aria-busy, and a spinner shows), the last album's tile takes it once drawn; and Enter
    pressed meanwhile opens the selected album, not the one the focus had been on."""
    slow = {"offline": False, "latency": 2500, "downloadThroughput": -1, "uploadThroughput": -1}
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    try:
        for enter in (False, True):
            open_fresh(driver)
            settled_on(driver, 0)
            driver.execute_script("document.querySelector('#carousel .tile.current a').focus();")
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", slow)
            ActionChains(driver).send_keys(Keys.END).perform()
            state = strip_state(driver)
            assert state == {"focus": "viewport", "busy": "true", "waiting": True}, f"right after End: {state}"
            # Two round trips of 2.5 s each (the album's data, then its page), on a machine that
            # may be busy: the waits allow for them, as the check is of where things go, not of
            # how fast (10 s timed out once in a fresh-clone CI run).
            if enter:
                ActionChains(driver).send_keys(Keys.ENTER).perform()
                wait(driver, lambda d: d.current_url == BASE + ALBUMS[LAST]["url"],
                     f"Enter to open the last album's page (at {driver.current_url})", deadline=3 * DEADLINE)
            else:
                wait(driver, lambda d: strip_state(d) == {"focus": f"tile {LAST}", "busy": "false", "waiting": False},
                     "the last album's tile to be drawn and take the focus", deadline=3 * DEADLINE)
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", dict(slow, latency=0))
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", dict(slow, latency=0))
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})


def tab_stops(driver):
    """What the Tab key reaches, from the top of the page round to its end: 'viewport',
    'tile N', or another element's tag."""
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    stops = []
    for _ in range(40):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        stop = driver.execute_script("""
            var e = document.activeElement, t = e.closest('#carousel .tile');
            return t ? 'tile ' + t.dataset.index : e.classList.contains('viewport') ? 'viewport' : e.tagName;""")
        if stop in ("BODY", "HTML") and stops:
            break
        stops.append(stop)
    return stops


def the_strip_is_one_tab_stop(driver):
    """The README's "the strip is one stop for the Tab key": with the script, the selected
    tile's link (which takes the arrow keys) is the strip's one stop, not the scrolling
    viewport too; without it the viewport is the stop, as a scrollable region must be
    reachable by keyboard."""
    for path, index in (("", 0), (ALBUMS[7]["url"], 7)):
        open_fresh(driver, path)
        settled_on(driver, index)
        stops = [stop for stop in tab_stops(driver) if stop == "viewport" or stop.startswith("tile")]
        assert stops == [f"tile {index}"], f"/{path}: the Tab key stops in the strip at {stops}"
    no_script = chromium(javascript=False)
    try:
        no_script.get(BASE)
        stops = [stop for stop in tab_stops(no_script) if stop == "viewport" or stop.startswith("tile")]
        assert stops and stops[0] == "viewport", f"without the script the Tab key stops in the strip at {stops[:3]}"
    finally:
        no_script.quit()


def description(driver):
    return driver.execute_script("""
        var v = document.querySelector('#carousel .viewport'), id = v.getAttribute('aria-describedby'), d = id && document.getElementById(id);
        return {label: v.getAttribute('aria-label'), description: d ? d.textContent : null};""")


def the_strip_promises_its_keys_only_with_the_script(driver):
    """SC 3.3.2, 4.1.2: the strip's name is short ("Albums"), and the keys are its description
    only when the script, which handles them, runs; without it they would do nothing."""
    open_fresh(driver)
    settled_on(driver, 0)
    found = description(driver)
    assert found["label"] == "Albums" and found["description"] and "Home and End" in found["description"], f"with the script: {found}"
    no_script = chromium(javascript=False)
    try:
        no_script.get(BASE)
        found = description(no_script)
        assert found == {"label": "Albums", "description": None}, f"without the script: {found}"
        shown = no_script.execute_script("var h = document.querySelector('#carousel .carousel-help'); return h && h.getClientRects().length;")
        assert shown == 0, "the help is shown on the page"
    finally:
        no_script.quit()


def without_the_script_a_link_skips_the_strip(driver):
    """SC 2.4.1: without the script every tile is a Tab stop (20 on this index page), so a link
    before the strip, shown when it has the focus, takes the keyboard past it; with the script
    (the strip one stop) it is not there."""
    no_script = chromium(javascript=False)
    try:
        no_script.get(BASE)
        no_script.execute_script("window.scrollTo(0, 0);")
        for presses in range(1, 6):
            ActionChains(no_script).send_keys(Keys.TAB).perform()
            if no_script.execute_script("return document.activeElement.classList.contains('carousel-skip');"):
                break
        else:
            raise AssertionError("no link to skip the strip in the first five Tab stops")
        visible = no_script.execute_script("var r = document.activeElement.getBoundingClientRect(); return r.width > 20 && r.height > 10;")
        assert visible, "the skip link is not shown while it has the focus"
        ActionChains(no_script).send_keys(Keys.ENTER).perform()
        ActionChains(no_script).send_keys(Keys.TAB).perform()
        after = no_script.execute_script("""var e = document.activeElement;
            return {inStrip: !!e.closest('#carousel .viewport'), tag: e.tagName, text: e.textContent.trim().slice(0, 40)};""")
        assert not after["inStrip"], f"after the skip link, Tab went into the strip: {after}"
    finally:
        no_script.quit()
    open_fresh(driver)
    settled_on(driver, 0)
    assert driver.execute_script("return getComputedStyle(document.querySelector('#carousel .carousel-skip')).display;") == "none", "the skip link is there with the script"


def no_console_errors(driver):
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, "console errors: " + json.dumps(errors)


def main():
    failures = 0
    driver = chromium()
    try:
        for check in [tiles_are_in_album_order, focus_stays_with_the_selection, the_status_speaks_once,
                      reduced_motion_is_followed_when_it_changes, a_far_jump_on_a_slow_network, the_strip_is_one_tab_stop,
                      the_strip_promises_its_keys_only_with_the_script, without_the_script_a_link_skips_the_strip,
                      no_console_errors]:
            failures += not report.run(check, driver)
    finally:
        driver.quit()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
