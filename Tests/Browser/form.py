"""A student on a phone sends COVID reports through /report while things go wrong, in Chromium
driven through Selenium and Debian's chromium-driver.

  form.py URL ADMIN_EMAIL PASSWORD ARTIFACTS

Each path counts the reports the service stored (through a verifier's queue) and ends on a
receipt without the student typing anything twice:
- the answer is lost (the service stored the report) and the page is reloaded: the page settles
  the kept send by itself and shows that report's receipt;
- the answer is lost, then the form is changed and sent: the first report's receipt, with the
  changes offered as a new report, which one press sends;
- a double tap on Send: one report;
- the network is cut while sending and comes back: the kept report goes by itself, once;
- the tab is closed before the network returns: the report waits in the device's outbox and goes
  once, through the service worker's background sync with no page open, or from the form when it
  is opened again; either way the form then shows its receipt;
- an empty form: the summary names the fields by the labels on screen.
A lost answer is made by a script added before the page's own (DevTools): the first POST of a
report reaches the service, and its answer is thrown away, as a dropped connection would.
"""

import datetime
import json
import socket
import sys
import threading
import time
import urllib.request

import websocket

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as seen
from selenium.webdriver.support.ui import Select

from session import Checks, api, chromium, shooter

URL, EMAIL, PASSWORD, ARTIFACTS = sys.argv[1:5]
HALL = "H09"
check = Checks("form")
call = api(URL)

LOSE_ANSWER = """
(() => {
  const real = window.fetch;
  window.fetch = async function (input, init) {
    const url = typeof input === "string" ? input : input.url;
    if (sessionStorage.getItem("test.loseAnswer") && url.endsWith("/v1/reports") && init && init.method === "POST") {
      sessionStorage.removeItem("test.loseAnswer");
      await real.call(this, input, init);
      throw new TypeError("Failed to fetch");
    }
    return real.call(this, input, init);
  };
})();
"""


admin = call("POST", "/v1/auth/login", {"email": EMAIL, "password": PASSWORD})[1]["token"]
call("POST", "/v1/accounts", {"email": "form-reader@browser.example", "role": "verifier", "password": "form-reader-password-1"}, admin)
reader = call("POST", "/v1/auth/login", {"email": "form-reader@browser.example", "password": "form-reader-password-1"})[1]["token"]


def stored():
    _, page = call("GET", f"/v1/verification/queue?status=pending&layer=halls&area={HALL}&limit=500", token=reader)
    return [r["id"] for r in page["reports"]]


def phone_of(report_id):
    return ((call("GET", f"/v1/reports/{report_id}", token=reader)[1].get("report") or {}).get("covid") or {}).get("phone")


driver, wait = chromium(390, 844)
shot = shooter(driver, ARTIFACTS)
driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LOSE_ANSWER})
driver.execute_cdp_cmd("Network.enable", {})


def network(online):
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def fresh_form():
    driver.get(URL + "/report")
    wait.until(lambda d: len(Select(d.find_element(By.ID, "c-area")).options) > 1)


def fill(phone):
    day = (datetime.date.today() - datetime.timedelta(days=2)).isoformat()
    Select(driver.find_element(By.ID, "c-affiliation")).select_by_value("student")
    for field in ("c-testDate", "c-lastOnCampus"):
        driver.execute_script("arguments[0].value = arguments[1]", driver.find_element(By.ID, field), day)
    box = driver.find_element(By.ID, "c-phone")
    box.clear()
    box.send_keys(phone)
    Select(driver.find_element(By.ID, "c-area")).select_by_value(f"halls|{HALL}")


def send():
    driver.find_element(By.CSS_SELECTOR, "#covid button[type=submit]").click()


def receipt_shown(previous_url=""):
    wait.until(lambda d: "/report/receipt#" in d.current_url and d.current_url != previous_url
               and d.find_element(By.ID, "receipt-status").text == "pending")
    return driver.find_element(By.ID, "receipt-id").text


def new_since(before):
    return [i for i in stored() if i not in before]


WAITING = """
const done = arguments[arguments.length - 1];
reportOutbox.waiting().then((all) => done(all.length), () => done(-1));
"""


def waiting_on_device():
    return driver.execute_async_script(WAITING)


def close_tab():
    """The form's tab closes; an empty tab stays, so that the browser and its workers go on."""
    form_tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    blank = driver.current_window_handle
    driver.switch_to.window(form_tab)
    driver.close()
    driver.switch_to.window(blank)


def fire_sync(origin):
    """The browser's background sync for the form's worker, as Chromium fires it when the device
    comes back online (DevTools' ServiceWorker.dispatchSyncEvent, over the browser's own DevTools
    socket, since the command needs the registration's id from an event)."""
    address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    page = next(t for t in json.load(urllib.request.urlopen(f"http://{address}/json/list")) if t["type"] == "page")
    socket_ = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=20, suppress_origin=True)
    try:
        socket_.send(json.dumps({"id": 1, "method": "ServiceWorker.enable"}))
        registration = None
        while registration is None:
            message = json.loads(socket_.recv())
            if message.get("method") == "ServiceWorker.workerRegistrationUpdated":
                registration = next((r["registrationId"] for r in message["params"]["registrations"]
                                     if r["scopeURL"].startswith(origin) and not r["isDeleted"]), None)
        socket_.send(json.dumps({"id": 2, "method": "ServiceWorker.dispatchSyncEvent",
                                 "params": {"origin": origin, "registrationId": registration, "tag": "send-reports", "lastChance": False}}))
        while (answer := json.loads(socket_.recv())).get("id") != 2:
            pass
        if "error" in answer:
            raise RuntimeError(f"dispatchSyncEvent: {answer['error']}")
    finally:
        socket_.close()


def eventually(condition, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.25)
    return condition()


def offline_report(relayed, phone):
    """Opens the form with the network cut, and sends a report that cannot go."""
    driver.get(relayed + "/report")
    wait.until(lambda d: len(Select(d.find_element(By.ID, "c-area")).options) > 1)
    fill(phone)
    send()
    wait.until(lambda d: "Not sent" in d.find_element(By.ID, "status").text)


class Link:
    """A TCP relay in front of the service, for a network that really goes away: while it is
    down, nothing answers on its port, for the page and its service worker alike."""

    def __init__(self, target_port):
        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.open = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self.open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def pipe(a, b):
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self):
        self.up = False
        for s in self.open:
            try:
                s.close()
            except OSError:
                pass
        self.open = []

    def restore(self):
        self.up = True


try:
    driver.get(URL + "/report")
    driver.execute_script("localStorage.clear(); sessionStorage.clear();")

    # The answer is lost, the student reloads: the page finds the stored report's receipt.
    before = stored()
    fresh_form()
    fill("+1 336 555 0101")
    driver.execute_script("sessionStorage.setItem('test.loseAnswer', '1')")
    send()
    wait.until(lambda d: "Not sent" in d.find_element(By.ID, "status").text)
    check(len(new_since(before)) == 1, "a send whose answer is lost has reached the service", f"{new_since(before)}")
    shot("form-answer-lost-phone")
    driver.refresh()
    shown = receipt_shown()
    added = new_since(before)
    check(len(added) == 1 and shown == added[0], "after a reload the page shows the stored report's receipt, and stores nothing more",
          f"shown {shown}, stored {added}")

    # The answer is lost, the student changes the phone number and sends: the first report's
    # receipt, with the change offered as a new report.
    before = stored()
    fresh_form()
    fill("+1 336 555 0102")
    driver.execute_script("sessionStorage.setItem('test.loseAnswer', '1')")
    send()
    wait.until(lambda d: "Not sent" in d.find_element(By.ID, "status").text)
    fill("+1 336 555 0103")
    send()
    first = receipt_shown()
    added = new_since(before)
    check(len(added) == 1 and first == added[0], "a changed form after a lost answer shows the first report's receipt", f"shown {first}, stored {added}")
    wait.until(seen.visibility_of_element_located((By.ID, "offer")))
    check(True, "the receipt offers the changes as a new report")
    shot("form-offer-phone")
    first_url = driver.current_url
    driver.find_element(By.ID, "offer-send").click()
    second = receipt_shown(first_url)
    added = new_since(before)
    check(len(added) == 2 and second != first and second in added, "one press sends the changes as a second report", f"{added}, shown {second}")
    check(phone_of(first) == "+1 336 555 0102" and phone_of(second) == "+1 336 555 0103",
          "the first report is as first sent, the second holds the change", f"{phone_of(first)} / {phone_of(second)}")
    check(not driver.find_element(By.ID, "offer").is_displayed(), "the offer is gone once taken")

    # A double tap sends one report.
    before = stored()
    fresh_form()
    fill("+1 336 555 0104")
    driver.execute_script("const b = document.querySelector('#covid button[type=submit]'); b.click(); b.click();")
    receipt_shown()
    time.sleep(0.5)
    check(len(new_since(before)) == 1, "a double tap on Send stores one report", f"{new_since(before)}")

    # The page's network is cut while sending and comes back: the kept report goes by itself, once.
    # DevTools cuts the page's network only, not its service worker's, whose background sync may
    # send the report first: once either way (the cut that reaches the worker is the Link below).
    before = stored()
    fresh_form()
    fill("+1 336 555 0105")
    network(False)
    send()
    wait.until(lambda d: "Not sent" in d.find_element(By.ID, "status").text)
    check(len(new_since(before)) <= 1, "while the page is offline the report is stored at most once")
    network(True)
    shown = receipt_shown()
    added = new_since(before)
    check(len(added) == 1 and shown == added[0], "when the network returns the kept report goes by itself, once", f"shown {shown}, stored {added}")

    # An empty form: the summary names fields as the labels on screen do.
    fresh_form()
    send()
    wait.until(seen.visibility_of_element_located((By.ID, "summary")))
    summary = driver.find_element(By.ID, "summary").text
    check("Day of the test" in summary and "Phone number" in summary and "Residence hall" in summary and "testDate" not in summary
          and "never published" not in summary and "Latitude" not in summary,
          "the problem summary uses the labels on screen", summary)
    shot("form-problems-phone")

    # Visited once, the form opens with no network at all (its service worker keeps it and the
    # halls), keeps a report written then, and sends it, once, when the network returns.
    link = Link(int(URL.rsplit(":", 1)[1]))
    relayed = f"http://127.0.0.1:{link.port}"
    driver.get(relayed + "/report")
    wait.until(lambda d: len(Select(d.find_element(By.ID, "c-area")).options) > 1)
    wait.until(lambda d: d.execute_script("return navigator.serviceWorker.ready.then(() => true)"))
    driver.refresh()
    wait.until(lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"))
    wait.until(lambda d: len(Select(d.find_element(By.ID, "c-area")).options) > 1)
    link.cut()
    check(call("GET", "/readyz")[0] == 200, "the service itself stays up while the link is cut")
    driver.refresh()
    wait.until(lambda d: len(Select(d.find_element(By.ID, "c-area")).options) > 1)
    check(driver.find_element(By.CSS_SELECTOR, "#covid h2").text != "", "with no network the form opens from the device, halls listed")
    shot("form-offline-phone")
    before = stored()
    fill("+1 336 555 0106")
    send()
    wait.until(lambda d: "Not sent" in d.find_element(By.ID, "status").text)
    check(not new_since(before), "a report written offline waits on the device")
    link.restore()
    driver.execute_script("window.dispatchEvent(new Event('online'))")
    shown = receipt_shown()
    added = new_since(before)
    check(len(added) == 1 and shown == added[0], "when the network returns it goes, once, and its receipt shows", f"shown {shown}, stored {added}")
    # The outbox entry is settled just after the receipt shows (IndexedDB is asynchronous).
    check(eventually(lambda: waiting_on_device() == 0), "a report sent leaves the device's outbox", f"{waiting_on_device()} waiting")

    # Written offline, the tab closed, the network back: the service worker sends it on the
    # background sync with no page open, and the form, opened again, shows its receipt.
    before = stored()
    link.cut()
    offline_report(relayed, "+1 336 555 0107")
    check(waiting_on_device() == 1, "a report written offline waits in the device's outbox")
    close_tab()
    link.restore()
    time.sleep(1)
    check(not new_since(before), "closing the tab sends nothing by itself")
    fire_sync(relayed)
    check(eventually(lambda: len(new_since(before)) == 1), "the background sync sends it with no page open", f"{new_since(before)}")
    driver.get(relayed + "/report")
    shown = receipt_shown()
    added = new_since(before)
    check(len(added) == 1 and shown == added[0], "the form opened again shows the receipt of what the worker sent, and sends nothing more",
          f"shown {shown}, stored {added}")
    shot("form-outbox-delivered-phone")
    fire_sync(relayed)
    time.sleep(1)
    check(len(new_since(before)) == 1, "a later sync finds nothing to send")

    # The same with no background sync: the form, opened again online, sends what waits.
    before = stored()
    link.cut()
    offline_report(relayed, "+1 336 555 0108")
    close_tab()
    link.restore()
    driver.get(relayed + "/report")
    shown = receipt_shown()
    added = new_since(before)
    check(len(added) == 1 and shown == added[0], "a report left waiting by a closed tab goes, once, when the form is opened again",
          f"shown {shown}, stored {added}")
    check(phone_of(shown) == "+1 336 555 0108", "it is the report as written offline", f"{phone_of(shown)}")
    check(eventually(lambda: waiting_on_device() == 0), "and the outbox is empty afterwards", f"{waiting_on_device()} waiting")
except Exception as e:  # a step that timed out names itself in the screenshot
    network(True)
    check.broke(e, __file__, shot("form-failure"))
finally:
    driver.quit()

sys.exit(check.summary())
