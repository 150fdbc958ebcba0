"""A reporter and a verifier in Chromium, driven through Selenium and Debian's chromium-driver.

  flow.py URL ADMIN_EMAIL PASSWORD ARTIFACTS

Eleven COVID reports in one hall are verified through the API; a twelfth is sent through /report (first empty: the API's problems appear next to the
fields and nothing is stored; then once with the network cut, then again with the same
Idempotency-Key), a verifier signs in to /admin with the session cookie and verifies it in the
console, and once a publication releases the hall's reports the dashboard's number changes,
having shown nothing while the hall held fewer than the threshold. Along the way: the
receipt page follows the status, a change sent with the session cookie but without its CSRF
token is refused, and the dashboard's first load is measured (bytes, time to the first tile).
"""

import datetime
import json
import sys
import time
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import Select

from session import Checks, api, chromium, shooter

URL, EMAIL, PASSWORD, ARTIFACTS = sys.argv[1:5]
HALL = "H05"
check = Checks("flow")
call = api(URL)


def login(email, password):
    return call("POST", "/v1/auth/login", {"email": email, "password": password})[1]["token"]


def hall_count(window="7d"):
    _, items = call("GET", "/collections/halls/items?limit=10000&f=json")
    return next(f["properties"][f"verified_{window}"] for f in items["features"] if f["id"] == HALL), items["statistics"]["total"]["counts"][window]


def pending_in_hall(token):
    _, page = call("GET", f"/v1/verification/queue?status=pending&layer=halls&area={HALL}&limit=200", token=token)
    return [r["id"] for r in page["reports"]]


admin = login(EMAIL, PASSWORD)
call("POST", "/v1/accounts", {"email": "verifier@browser.example", "role": "verifier", "password": "verifier-password-1"}, admin)
verifier = login("verifier@browser.example", "verifier-password-1")

# Eleven verified reports in the hall, not yet published: the public number stays 0.
today = datetime.date.today()
for i in range(11):
    day = (today - datetime.timedelta(days=1 + i % 4)).isoformat()
    _, r = call("POST", "/v1/reports", {"kind": "covid", "affiliation": "staff", "phone": "+1 336 555 0199", "testDate": day,
                                       "lastOnCampus": day, "area": {"layer": "halls", "id": HALL}})
    call("POST", f"/v1/reports/{r['id']}/transitions", {"transition": "verify"}, verifier)
before_hall, before_total = hall_count()
check(before_hall == 0, "verified reports reach no public number before a publication", f"{HALL} shows {before_hall}")

driver, wait = chromium(1280, 1000)
shot = shooter(driver, ARTIFACTS)


try:
    # The dashboard's first load, measured in the browser: bytes over the wire, time to the first tile.
    driver.get(URL + "/#layer=halls&window=7d")
    wait.until(lambda d: d.execute_script("return performance.getEntriesByType('resource').some(e => e.name.includes('/tiles/halls/'))"))
    time.sleep(1)
    load = driver.execute_script("""
      const r = performance.getEntriesByType('resource'), nav = performance.getEntriesByType('navigation')[0];
      const tiles = r.filter(e => e.name.includes('/tiles/halls/') && e.name.includes('.png'));
      return {bytes: nav.transferSize + r.reduce((s, e) => s + e.transferSize, 0), requests: r.length + 1,
              firstTile: Math.min(...tiles.map(e => e.responseEnd)), tiles: tiles.length};""")
    print(f"measure dashboard first load: {load['bytes'] / 1024:.0f} KB in {load['requests']} requests; "
          f"first tile at {load['firstTile']:.0f} ms ({load['tiles']} tiles)", flush=True)
    check(load["bytes"] <= 150 * 1024, "the dashboard's first load transfers at most 150 KB", f"{load['bytes']} bytes")

    # The same visitor again: every file and answer revalidates (304) or comes from the cache.
    driver.get("about:blank")
    driver.get(URL + "/#layer=halls&window=7d")
    wait.until(lambda d: d.execute_script("return performance.getEntriesByType('resource').some(e => e.name.includes('/tiles/halls/'))"))
    time.sleep(1)
    again = driver.execute_script("""
      const r = performance.getEntriesByType('resource'), nav = performance.getEntriesByType('navigation')[0];
      return {bytes: nav.transferSize + r.reduce((s, e) => s + e.transferSize, 0), requests: r.length + 1,
              fetched: r.filter(e => e.transferSize > 0).length};""")
    print(f"measure dashboard repeat visit: {again['bytes'] / 1024:.1f} KB in {again['requests']} requests "
          f"({again['fetched']} over the network)", flush=True)
    check(again["bytes"] <= 10 * 1024, "a repeat visit of the dashboard transfers at most 10 KB", f"{again}")

    # Another visitor's load is answered from the caches the first one filled: no response or
    # tile is made again.
    def misses():
        with urllib.request.urlopen(URL + "/metrics", timeout=30) as answer:
            text = answer.read().decode()
        return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("geoserve_cache_misses_total{"))
    before_misses = misses()
    driver.execute_script("localStorage.clear(); sessionStorage.clear();")
    driver.delete_all_cookies()
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.refresh()
    wait.until(lambda d: d.execute_script("return performance.getEntriesByType('resource').filter(e => e.name.includes('/tiles/halls/') && e.name.includes('.png')).length") >= load["tiles"])
    time.sleep(1)
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    check(misses() == before_misses, "a second visitor's dashboard is answered from the service's caches", f"misses {before_misses} -> {misses()}")

    # Switching the window by its control shows that window's numbers.
    driver.find_element(By.CSS_SELECTOR, "input[name=window][value='14d']").click()
    want14 = f"{call('GET', '/collections/halls/items?limit=10000&f=json')[1]['statistics']['total']['counts']['14d']:,}"
    wait.until(lambda d: d.find_element(By.ID, "window-label").text == "14 days" and d.find_element(By.ID, "total").text == want14)
    check("window=14d" in driver.current_url, "the window control switches the total to 14 days and keeps it in the address", driver.current_url)

    # An empty form: the API's problems next to the fields, and nothing stored.
    before = pending_in_hall(verifier)
    driver.get(URL + "/report")
    wait.until(lambda d: len(Select(d.find_element(By.ID, "c-area")).options) > 1)
    driver.find_element(By.CSS_SELECTOR, "#covid button[type=submit]").click()
    wait.until(seen.visibility_of_element_located((By.ID, "summary")))
    marked = {e.get_attribute("name") for e in driver.find_elements(By.CSS_SELECTOR, "#covid [aria-invalid=true]")}
    check({"affiliation", "phone", "testDate", "lastOnCampus"} <= marked, "an empty form shows the API's problems next to its fields", f"{marked}")
    problem = driver.find_element(By.CSS_SELECTOR, "#covid .invalid .problem").text
    check(bool(problem), "each marked field says what is wrong", problem)
    shot("report-problems")
    check(pending_in_hall(verifier) == before, "a refused form stores nothing", "")

    # Filled in, sent without a network, then again: one report.
    Select(driver.find_element(By.ID, "c-affiliation")).select_by_value("student")
    test_day = (today - datetime.timedelta(days=2))
    for field in ("c-testDate", "c-lastOnCampus"):
        driver.execute_script("arguments[0].value = arguments[1]", driver.find_element(By.ID, field), test_day.isoformat())
    driver.find_element(By.ID, "c-phone").send_keys("+1 336 555 0142")
    Select(driver.find_element(By.ID, "c-area")).select_by_value(f"halls|{HALL}")
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    driver.find_element(By.CSS_SELECTOR, "#covid button[type=submit]").click()
    wait.until(lambda d: "Not sent" in d.find_element(By.ID, "status").text)
    check(True, "a send without a network says it was not sent and keeps the report")
    # Back online, the kept report goes by itself, with the same key.
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait.until(lambda d: "/report/receipt" in d.current_url and d.find_element(By.ID, "receipt-status").text == "pending")
    receipt_url = driver.current_url
    added = [i for i in pending_in_hall(verifier) if i not in before]
    check(len(added) == 1, "sent again with the same key: exactly one report stored", f"{added}")
    report_id = added[0] if added else ""
    check(driver.find_element(By.ID, "receipt-id").text == report_id, "the receipt page names the stored report", "")
    shot("report-receipt")

    # The verifier signs in to the console (session cookie) and verifies it.
    driver.get(URL + "/admin")
    wait.until(seen.visibility_of_element_located((By.ID, "sign-in")))
    driver.find_element(By.ID, "email").send_keys("verifier@browser.example")
    driver.find_element(By.ID, "password").send_keys("verifier-password-1")
    driver.find_element(By.CSS_SELECTOR, "#sign-in button").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#queue tr[data-id='{report_id}']"))
    cookie = driver.get_cookie("geoserve_session") or {}
    check(cookie.get("httpOnly") and cookie.get("sameSite") == "Strict", "the session cookie is HttpOnly and SameSite=Strict", f"{cookie}")
    check(driver.execute_script("return document.cookie").find("geoserve_session") < 0, "page scripts cannot read the session cookie", "")
    status, body = call("POST", f"/v1/reports/{report_id}/transitions", {"transition": "verify"},
                        headers={"Cookie": f"geoserve_session={cookie.get('value', '')}"})
    check(status == 403 and body["error"]["code"] == "csrf", "a change with the session cookie but without its CSRF token is refused", f"{status} {body}")
    shot("admin-queue")
    driver.find_element(By.CSS_SELECTOR, f"#queue tr[data-id='{report_id}'] a").click()
    wait.until(seen.element_to_be_clickable((By.CSS_SELECTOR, "button[data-transition=verify]"))).click()
    wait.until(lambda d: d.find_element(By.ID, "report-status").text == "verified")
    check(True, "the verifier verified the report in the console")
    shot("admin-report")

    # Verified, but not published: the dashboard (with the verifier's cookie, which pages' public
    # reads ignore) still shows 0 for the hall.
    driver.get(URL + "/#layer=halls&window=7d")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#areas tr[data-id='{HALL}'] td"))
    shown = driver.find_element(By.CSS_SELECTOR, f"#areas tr[data-id='{HALL}'] td").text
    check(shown == "0", "the dashboard shows the published number, not the verifier's live one", f"{HALL} {shown}")

    # Twelve changes since the last publication: the next one releases the hall's block.
    call("POST", "/v1/publications", None, admin)
    after_hall, after_total = hall_count()
    check(after_hall == 12 and after_total == before_total + 12, "the publication releases the hall's twelve reports", f"{HALL}: {after_hall}, total {before_total} -> {after_total}")
    # The same address again: reloaded, since a navigation to it would only move to its fragment.
    driver.refresh()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#areas tr[data-id='{HALL}'] td"))
    shown = driver.find_element(By.CSS_SELECTOR, f"#areas tr[data-id='{HALL}'] td").text
    total = driver.find_element(By.ID, "total").text
    check(shown == "12" and total == f"{after_total:,}", "the dashboard shows the hall's number once it crosses the threshold", f"{HALL} {shown}, total {total}")
    # It says when the numbers last moved (this publication moved the all-time total) and why a
    # small hall may show 0, with the threshold in force.
    latest_day = call("GET", "/v1/publications")[1]["publications"][-1]["day"]
    wait.until(lambda d: "last moved" in d.find_element(By.ID, "updated").text)
    updated = driver.find_element(By.ID, "updated").text
    check(updated.endswith("numbers last moved " + latest_day), "the dashboard says when the numbers last moved", updated)
    note = driver.find_element(By.ID, "zero-note").text
    check("more than 11 of its reports" in note and "shows 0" in note, "the dashboard says in plain words why a small area may show 0", note)
    shot("dashboard-after")

    driver.get(receipt_url)
    wait.until(lambda d: d.find_element(By.ID, "receipt-status").text == "verified")
    check(True, "the receipt page shows the new status")

    # An admin posts an alert and uploads a layer in the console.
    driver.get(URL + "/admin#alerts")
    wait.until(seen.element_to_be_clickable((By.ID, "sign-out"))).click()
    wait.until(seen.visibility_of_element_located((By.ID, "sign-in")))
    driver.find_element(By.ID, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "#sign-in button").click()
    wait.until(seen.visibility_of_element_located((By.ID, "alert-title"))).send_keys("Flu clinic in the library on Friday")
    driver.find_element(By.ID, "alert-message").send_keys("Walk in between 9 and 5.")
    driver.find_element(By.CSS_SELECTOR, "#view form button[type=submit]").click()
    wait.until(lambda d: "Flu clinic in the library" in d.find_element(By.ID, "view").text)
    driver.get(URL + "/")
    wait.until(lambda d: "Flu clinic in the library" in d.find_element(By.ID, "alerts").text)
    check(True, "an alert posted in the console shows on the dashboard")
    path = f"{ARTIFACTS}/districts.geojson"
    square = lambda i, ring: {"type": "Feature", "id": f"D{i}", "properties": {"name": f"District {i}"}, "geometry": {"type": "Polygon", "coordinates": [ring]}}
    with open(path, "w") as f:
        json.dump({"type": "FeatureCollection", "features": [
            square(1, [[-87.602, 41.788], [-87.59, 41.788], [-87.59, 41.80], [-87.602, 41.80], [-87.602, 41.788]]),
            {**square(2, [[-87.59, 41.79], [-87.588, 41.79], [-87.588, 41.792], [-87.59, 41.79]]), "id": ""}]}, f)
    driver.get(URL + "/admin#layers")
    wait.until(seen.visibility_of_element_located((By.ID, "layer-name"))).send_keys("districts")
    driver.find_element(By.ID, "layer-file").send_keys(path)
    driver.find_element(By.CSS_SELECTOR, "#view form button[type=submit]").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#validation li.problem"))
    check("Nothing stored" in driver.find_element(By.ID, "status").text, "a layer with a rejected feature shows the validation and stores nothing",
          driver.find_element(By.ID, "status").text)
    driver.find_element(By.ID, "layer-name").send_keys("districts")
    driver.find_element(By.ID, "layer-file").send_keys(path)
    driver.find_element(By.NAME, "skip_invalid").click()
    driver.find_element(By.NAME, "publish").click()
    driver.find_element(By.CSS_SELECTOR, "#view form button[type=submit]").click()
    wait.until(lambda d: "published" in d.find_element(By.ID, "status").text)
    served = False
    for _ in range(50):
        served = call("GET", "/collections/districts/items")[0] == 200
        if served:
            break
        time.sleep(0.1)
    check(served, "the valid rest, published from the console, is served", "")
    shot("admin-layers")
except Exception as e:  # a step that timed out names itself in the screenshot
    check.broke(e, __file__, shot("flow-failure"))
finally:
    driver.quit()

sys.exit(check.summary())
