/// The self-report form at `/report`: both kinds' public forms (`report.html`), filled in and
/// sent by `report.js` through `POST /v1/reports`, so its checks and messages are the API's.
/// Without an account: what is sent carries no name, and the receipt is the reporter's way back.
/// Its limits are the validator's, filled in here (`ReportFormLimits`).
enum ReportPage {
    /// The form's script after the device's outbox it shares with the service worker (sw.js).
    static let scripts = ["/assets/outbox.js", "/assets/report.js"]
    static let html = PageFrame.app(title: "Report", scripts: scripts, leaflet: true)
        .document(body: PageAssets.reportForm.render(ReportFormLimits.values))
}
