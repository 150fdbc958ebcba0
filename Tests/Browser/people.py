"""The paths between the pages, for each person, in Chromium driven through Selenium.

  people.py URL ADMIN_EMAIL PASSWORD ARTIFACTS

- A student on the dashboard finds the report form and the receipt check by their links.
- A researcher follows "Data for researchers", signs in, sees only the export, prepares one and
  downloads the CSV: its rows are the JSON API's export, and the provenance is said in words.
- An admin opens Publish, sees the last and next publication, publishes now, and the service
  holds one publication more.
Screenshots at laptop width are kept in ARTIFACTS.
"""

import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import Select

from session import Checks, api, chromium, shooter

URL, EMAIL, PASSWORD, ARTIFACTS = sys.argv[1:5]
check = Checks("people")
call = api(URL)

admin = call("POST", "/v1/auth/login", {"email": EMAIL, "password": PASSWORD})[1]["token"]
call("POST", "/v1/accounts", {"email": "researcher@browser.example", "role": "researcher", "password": "researcher-password-1"}, admin)

driver, wait = chromium(1280, 1000)
shot = shooter(driver, ARTIFACTS)


def sign_in(email, password):
    wait.until(seen.visibility_of_element_located((By.ID, "sign-in")))
    driver.find_element(By.ID, "email").clear()
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "#sign-in button").click()


def visible_sections():
    return [a.get_attribute("data-view") for a in driver.find_elements(By.CSS_SELECTOR, "#nav a") if a.is_displayed()]


def transferred():
    """Bytes over the wire for the page just loaded and everything it fetched (0 for what came from a cache)."""
    return driver.execute_script("""
      const nav = performance.getEntriesByType('navigation')[0];
      const r = performance.getEntriesByType('resource');
      return {bytes: nav.transferSize + r.reduce((s, e) => s + e.transferSize, 0), requests: 1 + r.filter(e => e.transferSize > 0).length};""")


try:
    # What a phone pays for the form: the first visit, then a repeat visit (the service worker
    # in place, which must add nothing to it).
    driver.set_window_size(390, 844)
    driver.get(URL + "/report")
    wait.until(lambda d: len(Select(d.find_element(By.ID, "c-area")).options) > 1)
    time.sleep(0.5)
    first = transferred()
    driver.execute_script("return navigator.serviceWorker.ready.then(() => true)")
    driver.get(URL + "/")
    driver.get(URL + "/report")
    wait.until(lambda d: len(Select(d.find_element(By.ID, "c-area")).options) > 1)
    time.sleep(0.5)
    repeat = transferred()
    print(f"measure report form: first load {first['bytes'] / 1024:.0f} KB in {first['requests']} requests; "
          f"repeat visit {repeat['bytes'] / 1024:.1f} KB in {repeat['requests']} requests", flush=True)
    check(first["bytes"] <= 120 * 1024, "the form's first load is at most 120 KB", f"{first}")
    check(repeat["bytes"] <= 10 * 1024, "a repeat visit of the form is at most 10 KB", f"{repeat}")
    driver.set_window_size(1280, 1000)

    # The dashboard leads to the form and to the receipt check.
    driver.get(URL + "/")
    driver.find_element(By.LINK_TEXT, "Send a report").click()
    wait.until(lambda d: d.current_url.endswith("/report") and d.find_elements(By.ID, "covid"))
    driver.back()
    driver.find_element(By.LINK_TEXT, "Check a report you sent").click()
    wait.until(lambda d: d.find_elements(By.ID, "lookup"))
    check(True, "the dashboard links to the report form and to the receipt check")

    # The map answers a tap on an area with its name and number.
    driver.get(URL + "/#layer=halls&window=28d")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map path.leaflet-interactive"))
    # A tap lands in the middle of an outline's box, inside it for the rectangular halls; the
    # L-shaped ones are tried past.
    for area in driver.find_elements(By.CSS_SELECTOR, "#map path.leaflet-interactive")[:12]:
        ActionChains(driver).move_to_element(area).click().perform()
        time.sleep(0.3)
        if driver.find_elements(By.CSS_SELECTOR, ".area-popup"):
            break
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".area-popup"))
    popup = driver.find_element(By.CSS_SELECTOR, ".area-popup").text
    check("verified report(s) in the last 28 days" in popup and popup.splitlines()[0].strip() != "", "a tap on an area names it and gives its number", popup)
    shot("dashboard-tap")

    # The nearest testing sites from the keyboard alone: choose an area, Tab to Show, press Enter.
    driver.get(URL + "/#layer=halls&window=28d")
    wait.until(lambda d: len(Select(d.find_element(By.ID, "near-area")).options) > 1)
    choice = driver.find_element(By.ID, "near-area")
    driver.execute_script("arguments[0].focus()", choice)
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    chosen = Select(choice).first_selected_option.text
    driver.switch_to.active_element.send_keys(Keys.TAB)
    check(driver.switch_to.active_element.text == "Show", "Tab moves from the area list to Show", driver.switch_to.active_element.text)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait.until(lambda d: "Nearest testing sites to " + chosen in d.find_element(By.ID, "nearest").text)
    sites = driver.find_elements(By.CSS_SELECTOR, "#nearest li")
    check(len(sites) == 3 and all(" — " in s.text for s in sites), "the keyboard asks for the nearest testing sites to a chosen area",
          driver.find_element(By.ID, "nearest").text)

    # The researcher's path: dashboard → sign in → export → download.
    driver.get(URL + "/")
    driver.find_element(By.LINK_TEXT, "Data for researchers").click()
    sign_in("researcher@browser.example", "researcher-password-1")
    wait.until(seen.visibility_of_element_located((By.ID, "export-form")))
    check(visible_sections() == ["export"], "a researcher sees the export and nothing else", f"{visible_sections()}")
    check("error" not in (driver.find_element(By.ID, "status").get_attribute("class") or ""), "a researcher is not told the role may not do this",
          driver.find_element(By.ID, "status").text)
    Select(driver.find_element(By.ID, "export-bucket")).select_by_value("week")
    driver.find_element(By.CSS_SELECTOR, "#export-form button[type=submit]").click()
    wait.until(lambda d: d.find_elements(By.ID, "provenance"))
    provenance = driver.find_element(By.ID, "provenance").text
    check("row(s)" in provenance and "fewer than" in provenance, "the export's provenance and disclosure rule are said in words", provenance)
    shot("researcher-export")
    link = driver.find_element(By.ID, "download-csv")
    csv = driver.execute_async_script("const done = arguments[1]; fetch(arguments[0]).then(r => r.text()).then(done, e => done('failed: ' + e));",
                                      link.get_attribute("href"))
    researcher = call("POST", "/v1/auth/login", {"email": "researcher@browser.example", "password": "researcher-password-1"})[1]["token"]
    query = link.get_attribute("href").split("?", 1)[1]
    status, api_csv = call("GET", "/v1/exports/area-stats?" + query, token=researcher)
    check((link.get_attribute("download") or "").endswith(".csv"), "the CSV link downloads a .csv file", f"{link.get_attribute('download')}")
    api_csv = api_csv.decode() if isinstance(api_csv, bytes) else str(api_csv)
    check(status == 200 and csv.startswith("area_id,") and csv.splitlines()[0] == api_csv.splitlines()[0]
          and len(csv.splitlines()) == len(api_csv.splitlines()),
          "the download with the session is the API's export", f"{csv[:80]!r} / {api_csv[:80]!r}")

    driver.find_element(By.ID, "sign-out").click()
    wait.until(seen.visibility_of_element_located((By.ID, "sign-in")))

    # The admin publishes from the console.
    before = len(call("GET", "/v1/publications")[1]["publications"])
    driver.get(URL + "/admin#publish")
    sign_in(EMAIL, PASSWORD)
    wait.until(lambda d: d.find_elements(By.ID, "publication-state"))
    state = driver.find_element(By.ID, "publication-state").text
    check(("Last publication" in state or "No publication yet" in state) and "ext" in state, "Publish shows the last and the next publication", state)
    driver.find_element(By.XPATH, "//button[text()='Publish now']").click()
    wait.until(seen.alert_is_present())
    driver.switch_to.alert.accept()
    wait.until(lambda d: "Published: number" in d.find_element(By.ID, "status").text)
    after = call("GET", "/v1/publications")[1]["publications"]
    check(len(after) == before + 1 and f"number {after[-1]['id']}" in driver.find_element(By.ID, "publication-state").text,
          "Publish now makes one publication and shows it as the last", f"{before} -> {len(after)}")
    shot("admin-publish")
except Exception as e:  # a step that timed out names itself in the screenshot
    check.broke(e, __file__, shot("people-failure"))
finally:
    driver.quit()

sys.exit(check.summary())
