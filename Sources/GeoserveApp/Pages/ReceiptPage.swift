/// The receipt page at `/report/receipt`: a report's status for whoever holds its id and receipt.
/// Both travel in the address's fragment (`#id=…&receipt=…`), which browsers send to no server
/// and put in no Referer, or are typed in; the page keeps them on this device only if asked.
enum ReceiptPage {
    static let html = PageFrame.app(title: "Your report", scripts: ReportPage.scripts, noReferrer: true)
        .document(body: PageAssets.receipt.render())
}
