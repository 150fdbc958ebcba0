/// The campus dashboard at `/` for browsers: a shell (`dashboard.html`) whose script fills it from
/// the public API (`dashboard.js`), so it shows exactly what the public GeoJSON shows and nothing
/// more. Every number on it is also in the table, the map's non-visual alternative.
enum DashboardPage {
    static func html(basemap: BaseMap?) -> String {
        PageFrame.app(title: "Campus dashboard", scripts: ["/assets/dashboard.js"], leaflet: true)
            .document(body: PageAssets.dashboard.render(["basemap": .text(basemap?.urlTemplate ?? ""),
                                                         "basemapAttribution": .text(basemap?.attribution ?? "")]))
    }
}
