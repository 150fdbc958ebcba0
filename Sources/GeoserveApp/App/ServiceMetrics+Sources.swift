import Foundation
import MapTiles
import Storage
import Synchronization

extension ServiceMetrics {
    /// Registers what is read at each scrape from the parts that keep it: readiness, the data
    /// version and the newest publication, catalog refreshes, the caches and tile renders. Part of
    /// assembling the app (it names the app's parts), so it lives beside `buildApplication`.
    func observe(watcher: DataVersionWatcher, readiness: Readiness, responses: ResponseCache, tiles: TileService, tileResponses: ResponseCache) {
        sample("geoserve_ready") { readiness.isDraining ? 0 : 1 }
        sample("geoserve_data_version") { Double(max(0, watcher.dataVersion)) }
        sample("geoserve_publication") { Double(watcher.publications.latest?.id ?? 0) }
        // 0 before the first publication: an alert on age then fires on the missing publication
        // through the publication number staying 0, not on a huge age.
        sample("geoserve_publication_age_seconds") {
            watcher.publications.latest.map { max(0, Date().timeIntervalSince($0.publishedAt)) } ?? 0
        }
        sampleCounter("geoserve_catalog_refreshes_total") { watcher.refreshes.load(ordering: .relaxed) }
        sampleCounter("geoserve_tile_renders_total") { tiles.renders.load(ordering: .relaxed) }
        cache("responses") { responses.statistics }
        cache("tile_responses") { tileResponses.statistics }
        cache("tiles") { let s = tiles.cache.statistics; return (s.hits, s.misses, s.bytes) }
        cache("tile_geometry") { let s = tiles.geometry.statistics; return (s.hits, s.misses, s.bytes) }
        cache("statistics") { let s = tiles.statistics.releases.statistics; return (s.hits, s.misses, s.bytes) }
        cache("live_statistics") { tiles.statistics.liveViews.statistics }
    }

    /// Hits, misses and bytes of one cache, as `cache="name"`.
    private func cache(_ name: String, _ statistics: @escaping @Sendable () -> (hits: Int, misses: Int, bytes: Int)) {
        let label = [("cache", name)]
        sampleCounter("geoserve_cache_hits_total", dimensions: label) { statistics().hits }
        sampleCounter("geoserve_cache_misses_total", dimensions: label) { statistics().misses }
        sample("geoserve_cache_bytes", dimensions: label) { Double(statistics().bytes) }
    }
}
