"""What the Selenium scripts share: the checks' tally, the JSON API through urllib, and a
headless Chromium through Debian's chromium-driver, with screenshots kept in ARTIFACTS."""

import json
import traceback
import urllib.error
import urllib.request


class Checks:
    """Prints each check as `ok NAME` or `FAIL NAME: WHY` and counts them."""

    def __init__(self, suite):
        self.suite, self.passed, self.failed = suite, 0, 0

    def __call__(self, ok, name, why=""):
        print(f"ok {name}" if ok else f"FAIL {name}: {why}", flush=True)
        self.passed, self.failed = self.passed + bool(ok), self.failed + (not ok)

    def broke(self, error, script, shot):
        """A step that raised (a wait that timed out) names its line and its screenshot."""
        where = next((f"line {t.lineno}" for t in reversed(traceback.extract_tb(error.__traceback__)) if t.filename == script), "?")
        first = str(error).splitlines()[0] if str(error) else ""
        self(False, f"the {self.suite} ran to its end", f"{type(error).__name__} at {where}: {first} (see {shot})")

    def summary(self):
        """The last line, and the exit status."""
        print(f"{self.suite}: {self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def api(url):
    """`call(method, path, body, token, headers)` → (status, parsed JSON or None) against the service at `url`."""
    def call(method, path, body=None, token=None, headers=None):
        headers = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = None if body is None else json.dumps(body).encode()
        try:
            with urllib.request.urlopen(urllib.request.Request(url + path, data, headers, method=method), timeout=30) as answer:
                raw = answer.read()
        except urllib.error.HTTPError as e:
            raw, status = e.read(), e.code
        else:
            status = answer.status
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, raw
    return call


def chromium(width, height):
    """Headless Chromium at a window size, and a wait that looks a re-rendered element up again."""
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}", "--hide-scrollbars"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    return driver, WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException])


def shooter(driver, artifacts):
    """`shot(name)` saves a screenshot as ARTIFACTS/name.png and returns its path."""
    def shot(name):
        path = f"{artifacts}/{name}.png"
        driver.save_screenshot(path)
        return path
    return shot
