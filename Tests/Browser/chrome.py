"""How the browser checks start headless Chromium, through WebDriver (chromedriver)."""
import os

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

# Whether the strip may still be scrolling: a key pressed before a smooth scroll's scrollend is
# handled as if the visitor had scrolled, which most checks are not about. Scroll events reach
# the document in their capture phase; a scroll is over at its scrollend, or (the page's opening
# scroll has none) half a second after its last scroll event.
STILL_SCROLLING = """
    var scrolling = false, scrolled = 0;
    document.addEventListener('scroll', function () { scrolling = true; scrolled = performance.now(); }, true);
    document.addEventListener('scrollend', function () { scrolling = false; }, true);
    window.stillScrolling = function () { return scrolling && performance.now() - scrolled < 500; };"""


def chromium(javascript=True, width=1280, height=800, watch_scrolling=False, page_load_timeout=None, arguments=()):
    """A headless Chromium whose layout viewport is exactly `width` × `height` CSS px (a narrow one
    as a phone's), with the browser's console kept for the checks to read.

    - `javascript`: off gives the site without its script.
    - `watch_scrolling`: pages get `window.stillScrolling()` (see STILL_SCROLLING).
    - `arguments`: more command-line switches (analytics.py maps every host but loopback away)."""
    options = Options()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--hide-scrollbars", f"--window-size={width},{height}", *arguments):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    if watch_scrolling:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STILL_SCROLLING})
    if page_load_timeout:
        driver.set_page_load_timeout(page_load_timeout)
    return driver
