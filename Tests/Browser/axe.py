"""axe-core on every page, the admin console's sections included, in Chromium through Selenium.

  axe.py URL ADMIN_EMAIL PASSWORD ARTIFACTS

axe-core comes from the axe-playwright-python wheel on PyPI (its axe.min.js only; the package
itself is never imported), pinned in run.sh. Each page is checked after its script settled, at
phone width for the public pages and laptop width for the console; any violation of any impact
fails, named with its rule, impact and the first elements it found.
"""

import importlib.util
import os
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen

from session import Checks, api, chromium, shooter

URL, EMAIL, PASSWORD, ARTIFACTS = sys.argv[1:5]
check = Checks("axe")
call = api(URL)

spec = importlib.util.find_spec("axe_playwright_python")
AXE = open(os.path.join(spec.submodule_search_locations[0], "axe.min.js"), encoding="utf-8").read()

# A report to open in the console, and a publication so the dashboard has numbers.
admin = call("POST", "/v1/auth/login", {"email": EMAIL, "password": PASSWORD})[1]["token"]
_, sent = call("POST", "/v1/reports", {"kind": "misconduct", "occurredAt": "2026-11-20T21:15:00Z", "incidentDescription": "pushed at the gate",
                                       "officerDescription": "tall", "witnesses": [{"contact": "555 0101", "statement": "saw it"}],
                                       "anonymous": True, "area": {"layer": "halls", "id": "H03"}})
call("POST", "/v1/publications", {}, admin)


def audit(driver, name):
    """axe's violations on the current page, as lines; the page's screenshot is kept."""
    driver.execute_script(AXE)
    result = driver.execute_async_script("const done = arguments[0]; axe.run(document, {resultTypes: ['violations']}).then(done, (e) => done({error: String(e)}));")
    shooter(driver, ARTIFACTS)(f"axe-{name}")
    if "error" in result:
        return [f"axe failed: {result['error']}"]
    return [f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(" ".join(n["target"]) for n in v["nodes"][:3]) for v in result["violations"]]


def settle(driver, ready):
    WAIT.until(ready)
    time.sleep(0.3)


public = [
    ("dashboard", "/", lambda d: d.find_element(By.ID, "total").text not in ("", "–")),
    ("report", "/report", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#c-area option")) > 1),
    ("receipt", f"/report/receipt#id={sent['id']}&receipt={sent['receipt']}", lambda d: d.find_element(By.ID, "receipt-status").text == "pending"),
    ("admin-sign-in", "/admin", lambda d: d.find_element(By.ID, "sign-in").is_displayed()),
    ("collections", "/collections?f=html", lambda d: d.find_elements(By.TAG_NAME, "h1")),
    ("items", "/collections/halls/items?f=html&limit=5", lambda d: d.find_elements(By.TAG_NAME, "h1")),
    ("item", "/collections/halls/items/H03?f=html", lambda d: d.find_elements(By.TAG_NAME, "h1")),
]
console = [
    ("queue", "#queue", lambda d: d.find_elements(By.CSS_SELECTOR, "#queue tbody tr")),
    ("report-detail", f"#report/{sent['id']}", lambda d: d.find_elements(By.CSS_SELECTOR, "#view dl, #view h2")),
    ("publish", "#publish", lambda d: d.find_elements(By.ID, "publication-state")),
    ("export", "#export", lambda d: d.find_elements(By.ID, "export-form")),
    ("alerts", "#alerts", lambda d: d.find_elements(By.ID, "alert-title")),
    ("resources", "#resources", lambda d: d.find_elements(By.ID, "resource-title")),
    ("accounts", "#accounts", lambda d: d.find_elements(By.CSS_SELECTOR, "#view table")),
    ("layers", "#layers", lambda d: d.find_elements(By.ID, "layer-name")),
]

driver, WAIT = chromium(390, 844)
try:
    for name, path, ready in public:
        driver.get(URL + path)
        settle(driver, ready)
        found = audit(driver, name)
        check(not found, f"axe finds nothing on {path}", "\n  ".join(found))
except Exception as e:  # a step that timed out names itself in the screenshot
    check.broke(e, __file__, shooter(driver, ARTIFACTS)("axe-failure"))
finally:
    driver.quit()

driver, WAIT = chromium(1280, 1000)
try:
    driver.get(URL + "/admin")
    WAIT.until(seen.visibility_of_element_located((By.ID, "sign-in")))
    driver.find_element(By.ID, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "#sign-in button").click()
    WAIT.until(lambda d: d.find_element(By.ID, "who").is_displayed())
    for name, fragment, ready in console:
        driver.get(URL + "/admin" + fragment)
        settle(driver, ready)
        found = audit(driver, "admin-" + name)
        check(not found, f"axe finds nothing in the console's {name}", "\n  ".join(found))
except Exception as e:  # a step that timed out names itself in the screenshot
    check.broke(e, __file__, shooter(driver, ARTIFACTS)("axe-failure"))
finally:
    driver.quit()

sys.exit(check.summary())
