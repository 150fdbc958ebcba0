/// The campus dashboard at `/` for browsers: a shell whose script fills it from the public API
/// (`DashboardScript`), so it shows exactly what the public GeoJSON shows and nothing more. Every
/// number on it is also in the table, the map's non-visual alternative.
enum DashboardPage {
    static let html = PageShell.document(title: "Campus dashboard", script: "/assets/dashboard.js", leaflet: true, body: #"""
    <header class="top">
      <h1 id="title">Campus dashboard</h1>
      <p id="caption" class="caption">Loading the published numbers…</p>
    </header>
    <main>
      <section id="alerts" class="alerts" aria-label="Alerts" aria-live="polite"></section>
      <section class="controls" aria-label="What to show">
        <label>Areas <select id="layer"></select></label>
        <fieldset class="windows">
          <legend>Window</legend>
          <label><input type="radio" name="window" value="7d" checked> 7 days</label>
          <label><input type="radio" name="window" value="14d"> 14 days</label>
          <label><input type="radio" name="window" value="28d"> 28 days</label>
        </fieldset>
      </section>
      <section class="summary" aria-live="polite">
        <div class="card"><span class="label">Verified reports, <span id="window-label">7 days</span></span>
          <strong id="total" class="big">–</strong>
          <span id="change" class="change"></span></div>
        <div class="card"><span class="label">Published</span><strong id="published" class="mid">–</strong>
          <span id="updated" class="change"></span></div>
      </section>
      <section class="map-box" aria-label="Map">
        <div id="map" role="application" aria-label="Map of the areas, coloured by verified reports; the table below has every number"></div>
        <p id="map-missing" class="notice" hidden>The map needs Leaflet from Debian's <code>libjs-leaflet</code> package on the server
          (<code>apt-get install libjs-leaflet</code>). Every number is in the table below.</p>
        <div id="legend" class="legend" aria-label="Legend"></div>
        <div id="nearest" class="nearest" aria-live="polite"><p>Click or tap the map for the nearest testing sites.</p></div>
      </section>
      <section aria-labelledby="trend-title">
        <h2 id="trend-title">Over the last publications</h2>
        <div id="chart" class="chart"></div>
      </section>
      <section aria-labelledby="table-title">
        <h2 id="table-title">By area</h2>
        <div class="table-wrap">
          <table id="areas">
            <caption id="table-caption">Verified reports per area.</caption>
            <thead><tr>
              <th scope="col" aria-sort="none"><button type="button" data-key="name">Area</button></th>
              <th scope="col" aria-sort="descending" class="n"><button type="button" data-key="count">Reports</button></th>
              <th scope="col" aria-sort="none" class="n"><button type="button" data-key="previous">Window before</button></th>
              <th scope="col" aria-sort="none" class="n"><button type="button" data-key="change">Change</button></th>
              <th scope="col" aria-sort="none" class="n"><button type="button" data-key="rate">Per 1,000 residents</button></th>
            </tr></thead>
            <tbody></tbody>
          </table>
        </div>
        <p id="zero-note" class="small"></p>
      </section>
      <section id="resources-box" aria-labelledby="resources-title" hidden>
        <h2 id="resources-title">Resources</h2>
        <div id="resources" class="resources"></div>
      </section>
      <p class="small">Numbers change only at publications, on the campus's schedule. A small area's reports appear once
        more than the protection threshold have gathered, so that no one can be singled out. <a href="/collections?f=html">Collections</a> ·
        <a href="/openapi.json">API</a></p>
    </main>
    """#)
}
