/// The self-report form at `/report`: both kinds' public forms, filled in and sent by
/// `ReportScript` through `POST /v1/reports`, so its checks and messages are the API's. Without
/// an account: what is sent carries no name, and the receipt is the reporter's way back.
enum ReportPage {
    static let html = PageShell.document(title: "Report", script: "/assets/report.js", leaflet: true, body: #"""
    <header class="top">
      <h1>Send a report</h1>
      <p class="caption">Nothing on this page asks who you are. You get a receipt to check on your report later;
        verified reports count towards the published numbers, never with your details.</p>
    </header>
    <main class="form-page">
      <fieldset class="windows kinds">
        <legend>What do you report?</legend>
        <label><input type="radio" name="kind-choice" value="covid" checked> A positive COVID-19 test</label>
        <label><input type="radio" name="kind-choice" value="misconduct"> Police misconduct</label>
      </fieldset>
      <div id="summary" class="error-summary" role="alert" tabindex="-1" hidden></div>

      <form id="covid" class="report-form" data-kind="covid" novalidate>
        <h2>COVID-19 self-report</h2>
        <div class="field"><label for="c-affiliation">You are</label>
          <select id="c-affiliation" name="affiliation" required>
            <option value="">Choose…</option><option value="student">a student</option><option value="faculty">faculty</option><option value="staff">staff</option>
          </select></div>
        <div class="field"><label for="c-testDate">Day of the test</label><input id="c-testDate" name="testDate" type="date" required></div>
        <div class="field"><label for="c-lastOnCampus">Last day on campus</label><input id="c-lastOnCampus" name="lastOnCampus" type="date" required></div>
        <div class="field"><label for="c-phone">Phone number <span class="hint">for the health office to reach you; never published</span></label>
          <input id="c-phone" name="phone" type="tel" autocomplete="tel" required></div>
        <div class="field"><label for="c-age">Age <span class="hint">optional</span></label><input id="c-age" name="age" type="number" min="0" max="130" inputmode="numeric"></div>
        <div class="field"><label for="c-diagnosis">Diagnosis <span class="hint">optional</span></label>
          <select id="c-diagnosis" name="diagnosis"><option value="">Not said</option><option value="confirmed">confirmed by a test centre</option>
            <option value="unconfirmed">a home test</option></select></div>
        <fieldset class="place" data-place>
          <legend>Where you live</legend>
          <label><input type="radio" name="c-where" value="area" checked> My residence hall</label>
          <label><input type="radio" name="c-where" value="point"> A point on the map</label>
          <div class="field" data-mode="area"><label for="c-area">Residence hall</label>
            <select id="c-area" name="area.id" data-layer-choice="halls"><option value="">Choose…</option></select></div>
          <div data-mode="point" hidden>
            <div class="small-map" role="application" aria-label="Map: click or tap where you live"></div>
            <div class="pair">
              <div class="field"><label for="c-lat">Latitude</label><input id="c-lat" name="location.lat" type="number" step="any" inputmode="decimal"></div>
              <div class="field"><label for="c-lon">Longitude</label><input id="c-lon" name="location.lon" type="number" step="any" inputmode="decimal"></div>
            </div>
          </div>
        </fieldset>
        <div class="field"><label for="c-notes">Anything else <span class="hint">optional</span></label><textarea id="c-notes" name="notes" rows="3" maxlength="5000"></textarea></div>
        <button type="submit" class="primary">Send report</button>
      </form>

      <form id="misconduct" class="report-form" data-kind="misconduct" novalidate hidden>
        <h2>Police misconduct report</h2>
        <div class="field"><label for="m-occurredAt">When it happened</label><input id="m-occurredAt" name="occurredAt" type="datetime-local" required></div>
        <div class="field"><label for="m-officerDescription">The officer(s)</label>
          <textarea id="m-officerDescription" name="officerDescription" rows="3" maxlength="5000" required></textarea></div>
        <div class="pair">
          <div class="field"><label for="m-officerName">Officer's name <span class="hint">optional</span></label><input id="m-officerName" name="officerName" maxlength="200"></div>
          <div class="field"><label for="m-badgeNumber">Badge number <span class="hint">optional</span></label><input id="m-badgeNumber" name="badgeNumber" maxlength="200"></div>
        </div>
        <div class="field"><label for="m-incidentDescription">What happened</label>
          <textarea id="m-incidentDescription" name="incidentDescription" rows="5" maxlength="5000" required></textarea></div>
        <fieldset class="place" data-place>
          <legend>Where it happened</legend>
          <label><input type="radio" name="m-where" value="point" checked> A point on the map</label>
          <label><input type="radio" name="m-where" value="area"> An area</label>
          <div data-mode="point">
            <div class="small-map" role="application" aria-label="Map: click or tap where it happened"></div>
            <div class="pair">
              <div class="field"><label for="m-lat">Latitude</label><input id="m-lat" name="location.lat" type="number" step="any" inputmode="decimal"></div>
              <div class="field"><label for="m-lon">Longitude</label><input id="m-lon" name="location.lon" type="number" step="any" inputmode="decimal"></div>
            </div>
          </div>
          <div class="field" data-mode="area" hidden><label for="m-area">Area</label>
            <select id="m-area" name="area.id" data-layer-choice=""><option value="">Choose…</option></select></div>
        </fieldset>
        <fieldset>
          <legend>Witnesses <span class="hint">optional; never published</span></legend>
          <div id="witnesses"></div>
          <button type="button" id="add-witness">Add a witness</button>
        </fieldset>
        <fieldset>
          <legend>The person the officer acted against <span class="hint">optional; never published</span></legend>
          <div class="pair">
            <div class="field"><label for="m-race">Race</label><input id="m-race" name="victim.race" maxlength="200"></div>
            <div class="field"><label for="m-gender">Gender</label><input id="m-gender" name="victim.gender" maxlength="200"></div>
          </div>
          <div class="field"><label for="m-comments">Comments</label><textarea id="m-comments" name="victim.comments" rows="2" maxlength="5000"></textarea></div>
        </fieldset>
        <div class="field"><label for="m-files">Photos or videos <span class="hint">optional; JPEG, PNG, HEIC, WebP, MP4, MOV or WebM; seen only by verifiers</span></label>
          <input id="m-files" type="file" accept="image/jpeg,image/png,image/heic,image/webp,video/mp4,video/quicktime,video/webm" multiple></div>
        <p class="small">Only the officer description, the incident description, the day and the area of a verified report become
          public records; witnesses, the person's details and files never do.</p>
        <button type="submit" class="primary">Send report</button>
      </form>
      <p id="status" class="status" role="status" aria-live="polite"></p>
      <p class="small"><a href="/report/receipt">Check a report you sent</a> · <a href="/">Campus dashboard</a></p>
    </main>
    """#)
}
