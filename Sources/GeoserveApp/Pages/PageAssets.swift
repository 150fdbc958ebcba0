/// The files of `Pages/Assets`, compiled into the binary by SwiftPM (`embedInCode`, which makes
/// `PackageResources`): one binary still deploys, and the pages' sources stay files that
/// JavaScript and CSS tools read. Templates are parsed once, at first use.
enum PageAssets {
    static let domScript = PackageResources.dom_js
    static let dashboardScript = PackageResources.dashboard_js
    static let reportScript = PackageResources.report_js
    static let outboxScript = PackageResources.outbox_js
    static let adminScript = PackageResources.admin_js
    static let style = PackageResources.pages_css
    static let ogcStyle = PackageResources.ogc_css
    static let icon = PackageResources.icon_svg
    static let serviceWorker = PackageResources.sw_js
    static let manifest = PackageResources.manifest_webmanifest

    /// The frame of every page.
    static let shell = PageTemplate(embedded: PackageResources.shell_html)

    static let dashboard = PageTemplate(embedded: PackageResources.dashboard_html)
    static let reportForm = PageTemplate(embedded: PackageResources.report_html)
    static let receipt = PageTemplate(embedded: PackageResources.receipt_html)
    static let admin = PageTemplate(embedded: PackageResources.admin_html)

    static let ogcCollections = PageTemplate(embedded: PackageResources.ogc_collections_html)
    static let ogcList = PageTemplate(embedded: PackageResources.ogc_list_html)
    static let ogcItems = PageTemplate(embedded: PackageResources.ogc_items_html)
    static let ogcItem = PageTemplate(embedded: PackageResources.ogc_item_html)
    static let ogcError = PageTemplate(embedded: PackageResources.ogc_error_html)
}
