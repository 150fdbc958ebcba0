"""The dashboard checked in Chromium against the JSON API (standard library only).

  dashboard.py URL ADMIN_EMAIL PASSWORD ARTIFACTS WORK

Seeds verified reports through the API and publishes them, then lets headless Chromium run the
page (--dump-dom after the script settled) and compares what it shows with the API's numbers.
"""

import datetime
import html.parser
import json
import random
import subprocess
import sys
import urllib.request

URL, EMAIL, PASSWORD, ARTIFACTS, WORK = sys.argv[1:6]
passed = failed = 0


def check(ok, name, why=""):
    global passed, failed
    print(f"ok {name}" if ok else f"FAIL {name}: {why}", flush=True)
    passed, failed = passed + bool(ok), failed + (not ok)


def call(method, path, body=None, token=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(URL + path, data, headers, method=method), timeout=30) as answer:
        return json.load(answer), answer.headers


def seed():
    """Reports in a few halls, verified and published: some above the threshold, some below."""
    token = call("POST", "/v1/auth/login", {"email": EMAIL, "password": PASSWORD})[0]["token"]
    rng = random.Random(3)
    today = datetime.date.today()
    plan = {"H03": 30, "H07": 24, "H11": 14, "H20": 5, "H21": 2}
    for hall, count in plan.items():
        for _ in range(count):
            day = (today - datetime.timedelta(days=rng.randint(1, 12))).isoformat()
            report, _ = call("POST", "/v1/reports", {"kind": "covid", "affiliation": "student", "phone": "+1 336 555 0142",
                                                      "testDate": day, "lastOnCampus": day, "area": {"layer": "halls", "id": hall}})
            call("POST", f"/v1/reports/{report['id']}/transitions", {"transition": "verify"}, token)
    call("POST", "/v1/publications", None, token)
    return token


class Page(html.parser.HTMLParser):
    """The total and the table's rows (area name -> cells) as the browser left them."""

    def __init__(self):
        super().__init__()
        self.total, self.rows, self._in, self._row, self._text = None, {}, None, None, ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") == "total":
            self._in, self._text = "total", ""
        elif tag == "tr" and "data-id" in a:
            self._row = [a["data-id"]]
        elif self._row is not None and tag in ("th", "td"):
            self._in, self._text = "cell", ""

    def handle_endtag(self, tag):
        if self._in == "total" and tag == "strong":
            self.total, self._in = self._text.strip(), None
        elif self._in == "cell" and tag in ("th", "td"):
            self._row.append(self._text.strip())
            self._in = None
        elif tag == "tr" and self._row is not None:
            self.rows[self._row[0]] = self._row[1:]
            self._row = None

    def handle_data(self, data):
        if self._in:
            self._text += data


class Notices(html.parser.HTMLParser):
    """The tags and text inside the alerts section, and the resource links, as the browser left them."""

    def __init__(self):
        super().__init__()
        self.depth, self.tags, self.text, self.links, self._link = 0, [], "", [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id") == "alerts":
            self.depth = 1
        elif self.depth:
            self.depth += tag not in ("br", "img", "input")
            self.tags.append(tag)
        if tag == "a" and a.get("rel", "").startswith("noopener"):
            self._link = [a.get("href"), ""]

    def handle_endtag(self, tag):
        if self.depth and tag not in ("br", "img", "input"):
            self.depth -= 1
        if tag == "a" and self._link:
            self.links.append(tuple(self._link))
            self._link = None

    def handle_data(self, data):
        if self.depth:
            self.text += data
        if self._link:
            self._link[1] += data


class Tooltips(html.parser.HTMLParser):
    """The tags and text inside the map's labels (Leaflet tooltips) as the browser left them."""

    def __init__(self):
        super().__init__()
        self.depth, self.tags, self.text, self.count = 0, [], "", 0

    def handle_starttag(self, tag, attrs):
        if "leaflet-tooltip" in (dict(attrs).get("class") or "").split():
            self.depth, self.count = 1, self.count + 1
        elif self.depth:
            self.depth += tag not in ("br", "img", "input")
            self.tags.append(tag)

    def handle_endtag(self, tag):
        if self.depth and tag not in ("br", "img", "input"):
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.text += data


def chromium(args, url):
    return subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--user-data-dir={WORK}/chromium", "--virtual-time-budget=15000", *args, url],
                          capture_output=True, text=True, timeout=120)


def number(v):
    return "–" if v is None else f"{v:,}"


token = seed()
items, _ = call("GET", "/collections/halls/items?limit=10000&f=json")
with urllib.request.urlopen(urllib.request.Request(URL + "/", headers={"Accept": "text/html"}), timeout=30) as answer:
    policy = answer.headers.get("Content-Security-Policy", "")
check("script-src 'self'" in policy and "unsafe-inline" not in policy and "style-src 'self'" in policy,
      "the dashboard is sent with a Content-Security-Policy without unsafe-inline", policy)

for window in ("7d", "14d"):
    run = chromium(["--dump-dom"], f"{URL}/#layer=halls&window={window}")
    page = Page()
    page.feed(run.stdout)
    want_total = number(items["statistics"]["total"]["counts"][window])
    check(page.total == want_total, f"{window}: the total is the API's", f"page {page.total!r}, API {want_total!r}")
    expected = {f["id"]: number(f["properties"][f"verified_{window}"]) for f in items["features"]}
    shown = {area: cells[1] for area, cells in page.rows.items()}
    check(len(shown) == len(expected), f"{window}: every area is a row of the table", f"{len(shown)} rows for {len(expected)} areas")
    wrong = {a: (shown.get(a), n) for a, n in expected.items() if shown.get(a) != n}
    check(not wrong, f"{window}: every area's number is the API's", f"differ (page, API): {dict(list(wrong.items())[:5])}")
    top = sorted(expected, key=lambda a: -items["features"][[f["id"] for f in items["features"]].index(a)]["properties"][f"verified_{window}"])[:3]
    check(list(page.rows)[:3] == top or [shown[a] for a in list(page.rows)[:3]] == [expected[a] for a in top],
          f"{window}: the table is sorted by reports, most first", f"first rows {list(page.rows)[:3]}, expected {top}")
    names = {f["properties"].get("name") for f in items["features"]}
    check(all(cells[0] in names for cells in page.rows.values()), f"{window}: areas are named", "")

# An admin's words are text on the page, never markup; links are the admin's, nothing else.
hostile = "<script>document.title='owned'</script><img src=x onerror=alert(1)>"
call("POST", "/v1/alerts", {"title": hostile, "message": "Stay home if you feel ill.", "severity": "warning"}, token)
call("POST", "/v1/resources", {"title": "Student health", "category": "Health", "link": "https://health.example.edu/covid"}, token)
run = chromium(["--dump-dom"], f"{URL}/#layer=halls&window=7d")
notices = Notices()
notices.feed(run.stdout)
check(hostile in notices.text and "Stay home if you feel ill." in notices.text, "an alert's title and message are shown as written",
      notices.text[:200])
check(not {"script", "img"} & set(notices.tags), "an alert with <script> in its title renders as text, not as elements", f"{notices.tags}")
check("<title>owned" not in run.stdout, "the alert's script did not run", "")
check(("https://health.example.edu/covid", "Student health") in notices.links, "the resources list links the admin's resource",
      f"{notices.links}")

# An area's name is text on the map too: a name carrying markup (from an upload or an import)
# shows as its characters in the map's labels and makes no element there.
marked = '<img src=x onerror="document.title=\'owned\'"><a href="https://evil.example/">Sign in again</a>'
square = {"type": "FeatureCollection", "features": [{"type": "Feature", "id": "m1", "properties": {"name": marked}, "geometry": {
    "type": "Polygon", "coordinates": [[[-87.6003, 41.7894], [-87.6000, 41.7894], [-87.6000, 41.7896], [-87.6003, 41.7896], [-87.6003, 41.7894]]]}}]}
upload = urllib.request.Request(URL + "/v1/layers/marked/versions?publish=true", json.dumps(square).encode(),
                                {"Content-Type": "application/geo+json", "Authorization": "Bearer " + token}, method="POST")
with urllib.request.urlopen(upload, timeout=30) as answer:
    check(answer.status == 201, "an area named with markup is uploaded and published", f"{answer.status}")
run = chromium(["--dump-dom", "--window-size=800,700"], f"{URL}/#layer=marked&window=7d")
labels = Tooltips()
labels.feed(run.stdout)
check(labels.count >= 1 and marked in labels.text, "the map labels the area with its name as written", f"{labels.count} labels: {labels.text[:200]}")
check(not {"img", "a"} & set(labels.tags), "a name with <img> and <a> in it makes no element on the map", f"{labels.tags}")
check("<title>owned" not in run.stdout, "the name's handler did not run", "")

small = [f["id"] for f in items["features"] if 0 < f["properties"]["verified_14d"] <= 11]
check(not small, "no area shows a count the threshold holds back (1 to 11)", f"{small}")

for name, size in (("desktop", "1280,1100"), ("phone", "390,1700")):
    shot = f"{ARTIFACTS}/dashboard-{name}.png"
    run = chromium([f"--window-size={size}", f"--screenshot={shot}"], f"{URL}/#layer=halls&window=14d")
    check(run.returncode == 0, f"screenshot at {name} width kept as {shot}", run.stderr[-300:])

print(f"browser: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
