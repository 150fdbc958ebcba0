/// The `# HELP` line of every metric, as docs/runbooks.md describes it. swift-metrics' factory
/// registers metrics without help text (and the registry refuses a second registration whose help
/// differs), so the lines are put in front of each family's `# TYPE` line when the exposition is
/// written: `promtool check metrics` wants one for every family. A family without an entry here
/// fails the metrics test, so a new metric cannot go undocumented.
enum MetricHelp {
    static let text: [String: String] = [
        "geoserve_http_requests_total": "Requests answered, by route pattern, method and status class.",
        "geoserve_http_request_duration_seconds": "Time from a request to its handler's answer, by route pattern, method and status class.",
        "geoserve_http_requests_in_flight": "Requests being handled.",
        "geoserve_reports_received_total": "Reports submitted, by kind.",
        "geoserve_reports_decided_total": "Verifiers' decisions (verify, reject, revoke), both kinds together.",
        "geoserve_verification_latency_seconds": "Time from submission to a verification or rejection, both kinds together.",
        "geoserve_intake_batch_size": "Reports per group commit of intake.",
        "geoserve_intake_commit_seconds": "Time per group commit of intake.",
        "geoserve_store_call_seconds": "Time per store call, by operation.",
        "geoserve_store_errors_total": "Store calls that failed, by operation.",
        "geoserve_tile_renders_total": "Tiles drawn (not taken from a cache).",
        "geoserve_cache_hits_total": "Cache hits, by cache.",
        "geoserve_cache_misses_total": "Cache misses, by cache.",
        "geoserve_cache_bytes": "Bytes held, by cache.",
        "geoserve_catalog_refreshes_total": "Reloads of the published layers.",
        "geoserve_data_version": "The store's data version.",
        "geoserve_publication": "Number of the newest publication (0: none yet).",
        "geoserve_publication_age_seconds": "Seconds since the newest publication (0 before the first).",
        "geoserve_rate_limited_total": "Requests refused with 429, by limit.",
        "geoserve_webhook_deliveries_total": "Status-notification delivery attempts, one per endpoint, by result.",
        "geoserve_webhook_backlog": "Status-notification events not yet delivered to every endpoint.",
        "geoserve_webhook_oldest_failing_seconds": "Age of the oldest event whose delivery has failed (0: none).",
        "geoserve_ready": "1 while serving, 0 once a stop has begun (draining).",
        "geoserve_drill_copy": "1 when the store served is a drill copy (no notifications, no scheduled publications), else 0.",
        "geoserve_build_info": "The running version (always 1).",
    ]

    /// The exposition with a `# HELP` line before each family's `# TYPE` line that has none.
    static func adding(to exposition: [UInt8]) -> [UInt8] {
        let type = Array("# TYPE ".utf8), helpPrefix = Array("# HELP ".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(exposition.count + text.count * 80)
        var previousWasHelp = false
        for line in exposition.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if line.starts(with: type), !previousWasHelp {
                let name = line.dropFirst(type.count).prefix { $0 != UInt8(ascii: " ") }
                if let help = text[String(decoding: name, as: UTF8.self)] {
                    out += helpPrefix
                    out += name
                    out.append(UInt8(ascii: " "))
                    out += Array(help.utf8)
                    out.append(UInt8(ascii: "\n"))
                }
            }
            previousWasHelp = line.starts(with: helpPrefix)
            out += line
            out.append(UInt8(ascii: "\n"))
        }
        // The split gives one empty piece after the final newline: drop the newline it added.
        if exposition.last == UInt8(ascii: "\n") || exposition.isEmpty { out.removeLast() }
        return out
    }
}
