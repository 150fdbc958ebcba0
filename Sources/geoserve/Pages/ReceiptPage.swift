/// The receipt page at `/report/receipt`: a report's status for whoever holds its id and receipt.
/// Both travel in the address's fragment (`#id=…&receipt=…`), which browsers send to no server
/// and put in no Referer, or are typed in; the page keeps them on this device only if asked.
enum ReceiptPage {
    static let html = PageShell.document(title: "Your report", script: "/assets/report.js", noReferrer: true, body: #"""
    <header class="top">
      <h1>Your report</h1>
      <p class="caption">The status of a report you sent, read with its receipt. Only the holder of the receipt can see it.</p>
    </header>
    <main class="form-page" id="receipt-page">
      <section id="receipt" class="card receipt" aria-live="polite" hidden>
        <span class="label">Status</span>
        <strong id="receipt-status" class="mid">–</strong>
        <p id="receipt-explain"></p>
        <dl>
          <dt>Report</dt><dd><code id="receipt-id"></code></dd>
          <dt>Receipt</dt><dd><code id="receipt-token"></code></dd>
          <dt>Sent</dt><dd id="receipt-sent"></dd>
        </dl>
        <p class="small">Keep the report and receipt (or this page's address) to check again; whoever has them can see the
          status and withdraw the report.</p>
        <div class="actions">
          <button type="button" id="remember">Keep on this device</button>
          <button type="button" id="forget" hidden>Forget on this device</button>
          <button type="button" id="withdraw" hidden>Withdraw this report</button>
        </div>
        <p id="upload-status" class="status" role="status"></p>
      </section>
      <form id="lookup" class="report-form" novalidate>
        <h2>Check a report</h2>
        <div class="field"><label for="r-id">Report</label><input id="r-id" name="id" autocomplete="off" required></div>
        <div class="field"><label for="r-receipt">Receipt</label><input id="r-receipt" name="receipt" autocomplete="off" required></div>
        <button type="submit" class="primary">Check</button>
      </form>
      <section id="kept-box" hidden>
        <h2>Reports kept on this device</h2>
        <ul id="kept"></ul>
      </section>
      <p id="status" class="status" role="status" aria-live="polite"></p>
      <p class="small"><a href="/report">Send a report</a> · <a href="/">Campus dashboard</a></p>
    </main>
    """#)
}
