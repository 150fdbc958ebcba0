import ArgumentParser
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import GeoserveApp
@testable import geoserve

extension TestClientProtocol {
    /// GET /metrics: status and body text.
    func metrics(token: String? = nil, forwardedFor: String? = nil) async throws -> (HTTPResponse.Status, String) {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let forwardedFor { headers[.xForwardedFor] = forwardedFor }
        return try await execute(uri: "/metrics", method: .get, headers: headers) { r in (r.status, String(buffer: r.body)) }
    }
}

/// One sample's value from Prometheus's text format, found by its name and exact label set as
/// the exposition writes them; 0 when absent.
func sampleValue(_ text: String, _ series: String) -> Double {
    for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
        return Double(line.dropFirst(series.count + 1)) ?? .nan
    }
    return 0
}

@Suite("metrics, request ids and limits")
struct OperationsTests {
    @Test("every counter whose labels are known is exposed at 0 before its first event")
    func countersFromStart() {
        let text = String(decoding: ServiceMetrics().exposition(), as: UTF8.self)
        for series in [#"geoserve_reports_received_total{kind="covid"}"#, #"geoserve_reports_received_total{kind="misconduct"}"#,
                       "geoserve_reports_decided_total", #"geoserve_webhook_deliveries_total{result="delivered"}"#,
                       #"geoserve_webhook_deliveries_total{result="failed"}"#, #"geoserve_rate_limited_total{limit="login"}"#,
                       #"geoserve_rate_limited_total{limit="anonymous"}"#, #"geoserve_rate_limited_total{limit="account"}"#,
                       "geoserve_webhook_backlog", "geoserve_webhook_oldest_failing_seconds"] {
            #expect(text.contains("\n\(series) 0\n") || text.contains("\n\(series) 0.0\n"), "\(series)")
        }
    }

    @Test("/metrics counts requests by route pattern and status class, reports received and decided, and intake batches")
    func countersMove() async throws {
        let service = try await TestService()
        defer { service.remove() }
        let metrics = ServiceMetrics()
        try await service.run(.live, metrics: metrics) { client in
            let admin = try await client.login(TestService.adminEmail)
            for _ in 0..<3 { _ = try await client.json(.get, "/collections/halls/items") }
            _ = try await client.json(.get, "/collections/no-such-layer/items")
            _ = try await client.json(.get, "/v1/reports/\(UUID().uuidString)")
            let (status, created, _) = try await client.submit(Drafts.covid())
            #expect(status == .created)
            let id = created["id"] as? String ?? ""
            let (verified, _) = try await client.json(.post, "/v1/reports/\(id)/transitions", token: admin, body: #"{"transition":"verify"}"#)
            #expect(verified == .ok)

            let (scraped, text) = try await client.metrics()
            #expect(scraped == .ok)
            #expect(sampleValue(text, #"geoserve_http_requests_total{route="/collections/{layer}/items",method="GET",status_class="2xx"}"#) == 3)
            #expect(sampleValue(text, #"geoserve_http_requests_total{route="/collections/{layer}/items",method="GET",status_class="4xx"}"#) == 1)
            #expect(sampleValue(text, #"geoserve_http_request_duration_seconds_count{route="/collections/{layer}/items",method="GET",status_class="2xx"}"#) == 3)
            #expect(sampleValue(text, #"geoserve_reports_received_total{kind="covid"}"#) == 1)
            // Decisions are counted without their kind or outcome: a live count of verifications
            // would tell what publications hold back.
            #expect(sampleValue(text, "geoserve_reports_decided_total") == 1)
            #expect(sampleValue(text, "geoserve_verification_latency_seconds_count") == 1)
            #expect(!text.contains("decision=") && !text.contains(#"geoserve_verification_latency_seconds_count{kind"#))
            #expect(sampleValue(text, "geoserve_intake_batch_size_count") >= 1)
            #expect(sampleValue(text, "geoserve_intake_commit_seconds_count") >= 1)
            // Operation names are the backend's own (SQLite's methods, PostgreSQL's statements).
            let storeCalls = text.split(separator: "\n").filter { $0.hasPrefix("geoserve_store_call_seconds_count{operation=") }
            #expect(storeCalls.count >= 3)
            #expect(storeCalls.reduce(0) { $0 + (Double($1.split(separator: " ").last ?? "") ?? 0) } >= 5)
            #expect(sampleValue(text, "geoserve_ready") == 1)
            #expect(sampleValue(text, "geoserve_publication") >= 1)
            #expect(sampleValue(text, #"geoserve_cache_misses_total{cache="responses"}"#) >= 1)
            #expect(sampleValue(text, #"geoserve_cache_hits_total{cache="responses"}"#) >= 1)
            #expect(sampleValue(text, #"geoserve_cache_bytes{cache="statistics"}"#) > 0, "the released statistics items pages were written from")
            // Ids never become label values: the report read counts under its pattern.
            #expect(!text.contains(id))
            #expect(text.contains(#"route="/v1/reports/{id}""#))
            #expect(!text.contains("H07"))
            // Every family has its help line right before its type line (promtool wants one):
            // a metric added without an entry in MetricHelp fails here.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let types = lines.indices.filter { lines[$0].hasPrefix("# TYPE ") }
            #expect(types.count >= 20)
            for i in types {
                let name = lines[i].split(separator: " ")[2]
                #expect(i > 0 && lines[i - 1].hasPrefix("# HELP \(name) ") && lines[i - 1].count > "# HELP \(name) ".count, "\(name) has no help")
            }
            #expect(text.hasSuffix("\n") && !text.hasSuffix("\n\n"))
        }
    }

    @Test("/metrics without a token is for --metrics-allow addresses; a proxied client is judged by its forwarded address; an admin's token reads it anywhere")
    func access() async throws {
        var service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run(.live) { client in
            #expect(try await client.metrics().0 == .ok)    // loopback, the default
            let (status, _) = try await client.metrics(forwardedFor: "203.0.113.9")
            #expect(status == .forbidden)
        }
        service.configuration.metricsAllow = try MetricsAccess(parsing: "10.0.0.0/8")
        try await service.run(.live) { client in
            let (status, body) = try await client.metrics()
            #expect(status == .forbidden)
            #expect(body.contains("--metrics-allow"))
            let admin = try await client.login(TestService.adminEmail)
            #expect(try await client.metrics(token: admin).0 == .ok)
            let viewer = try await client.account("viewer", admin: admin).token
            #expect(try await client.metrics(token: viewer).0 == .forbidden)
            // Variants of the path that a proxy's exact rule would not block answer 404, even
            // to an admin's token.
            for variant in ["/metrics/", "//metrics", "/metrics//"] {
                let status = try await client.execute(uri: variant, method: .get, headers: [.authorization: "Bearer \(admin)"]) { $0.status }
                #expect(status == .notFound, "\(variant)")
            }
        }
        try await service.run(.live) { client in
            for variant in ["/metrics/", "//metrics"] {
                let (status, body) = try await client.execute(uri: variant, method: .get) { ($0.status, String(buffer: $0.body)) }
                #expect(status == .notFound && !body.contains("geoserve_"), "\(variant) from loopback")
            }
        }
    }

    @Test("--metrics-allow reads addresses and CIDR ranges of both families and refuses what it cannot read")
    func accessParsing() throws {
        let allow = try MetricsAccess(parsing: "10.0.0.0/8, 192.168.1.7,fd00::/8")
        #expect(allow.allows("10.200.3.4"))
        #expect(!allow.allows("11.0.0.1"))
        #expect(allow.allows("192.168.1.7"))
        #expect(!allow.allows("192.168.1.8"))
        #expect(allow.allows("fd12:3456::1"))
        #expect(!allow.allows("fe80::1"))
        #expect(allow.allows("::ffff:10.1.1.1"))
        #expect(!allow.allows("unknown"))
        #expect(MetricsAccess.loopback.allows("127.0.0.1") && MetricsAccess.loopback.allows("::1"))
        #expect(!(try MetricsAccess(parsing: "none")).allows("127.0.0.1"))
        #expect(throws: MetricsAccessError.self) { try MetricsAccess(parsing: "10.0.0/8") }
        #expect(throws: MetricsAccessError.self) { try MetricsAccess(parsing: "10.0.0.0/33") }
        #expect(throws: MetricsAccessError.self) { try MetricsAccess(parsing: "campus.example") }
    }

    @Test("every response carries a request id: the client's when plausible, else a new one")
    func requestIDs() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let given = try await client.execute(uri: "/healthz", method: .get, headers: [.xRequestID: "lb-7f3a.42:x_y"]) { $0.headers[.xRequestID] }
            #expect(given == "lb-7f3a.42:x_y")
            let odd = try await client.execute(uri: "/healthz", method: .get, headers: [.xRequestID: "two words\u{7}"]) { $0.headers[.xRequestID] }
            #expect(odd != nil && odd != "two words\u{7}" && odd.flatMap(RequestLogMiddleware.acceptable) != nil)
            let fresh = try await client.execute(uri: "/nowhere", method: .get) { $0.headers[.xRequestID] }
            let again = try await client.execute(uri: "/nowhere", method: .get) { $0.headers[.xRequestID] }
            #expect(fresh.flatMap(RequestLogMiddleware.acceptable) != nil && again.flatMap(RequestLogMiddleware.acceptable) != nil && fresh != again)
        }
    }

    @Test("an account past its writes per minute gets 429 with Retry-After, counted as an account limit; nothing is stored for it")
    func accountLimit() async throws {
        var service = try await TestService()
        defer { service.remove() }
        service.configuration.accountWritesPerMinute = 2
        let metrics = ServiceMetrics()
        try await service.run(.live, metrics: metrics) { client in
            let admin = try await client.login(TestService.adminEmail)
            let reporter = try await client.account("reporter", admin: admin).token
            let other = try await client.account("reporter", admin: admin).token
            #expect(try await client.submit(Drafts.misconduct(anonymous: false), token: reporter).0 == .created)
            #expect(try await client.submit(Drafts.misconduct(anonymous: false), token: reporter).0 == .created)
            let (status, body, headers) = try await client.submit(Drafts.misconduct(anonymous: false), token: reporter)
            #expect(status == .tooManyRequests)
            #expect(errorCode(body) == "rate_limited")
            #expect(Int(headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Another account has its own budget.
            #expect(try await client.submit(Drafts.misconduct(anonymous: false), token: other).0 == .created)
            let (_, queue) = try await client.json(.get, "/v1/verification/queue", token: admin)
            #expect((queue["reports"] as? [Any])?.count == 3)
            let (_, text) = try await client.metrics()
            #expect(sampleValue(text, #"geoserve_rate_limited_total{limit="account"}"#) == 1)
        }
    }

    @Test("a JSON log line is one object: time, level, logger, message, then the metadata, control characters escaped")
    func jsonLine() throws {
        let date = Date(timeIntervalSince1970: 1_795_472_019.25)
        let line = JSONLogHandler.line(time: date, level: .notice, label: "geoserve", message: "a \"quoted\"\nline\u{1}",
                                       metadata: ["hb.request.id": "abc", "count": .stringConvertible(3), "list": .array(["x", .dictionary(["k": "v"])])])
        let text = String(decoding: line, as: UTF8.self)
        #expect(!text.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        #expect(object["time"] as? String == "2026-11-23T22:13:39.250Z")
        #expect(object["level"] as? String == "notice")
        #expect(object["logger"] as? String == "geoserve")
        #expect(object["message"] as? String == "a \"quoted\"\nline\u{1}")
        #expect(object["request_id"] as? String == "abc")
        #expect(object["count"] as? Int == 3, "a number is a JSON number")
        #expect(((object["list"] as? [Any])?.last as? [String: String]) == ["k": "v"])
    }

    @Test("a request line encoded directly is the line the JSON handler writes for the same event")
    func requestLine() {
        let time = Date(timeIntervalSince1970: 1_795_472_019.25)
        let direct = RequestLine(id: "abc", method: "GET", route: "/v1/reports/{id}", status: 404, micros: 3_264, account: "acc-1")
            .json(level: .info, label: "geoserve", time: time)
        let handler = JSONLogHandler.line(time: time, level: .info, label: "geoserve", message: "request",
                                          metadata: ["hb.request.id": "abc", "method": "GET", "route": "/v1/reports/{id}",
                                                     "status": .stringConvertible(404), "duration_ms": .stringConvertible(LogDecimal(3.264, places: 2)), "account": "acc-1"])
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: handler, as: UTF8.self))
        let anonymous = RequestLine(id: "x\"y", method: "POST", route: "/v1/reports", status: 201, micros: 40, account: nil).json(level: .info, label: "geoserve", time: time)
        let object = (try? JSONSerialization.jsonObject(with: Data(anonymous))) as? [String: Any]
        #expect(object?["request_id"] as? String == "x\"y" && object?["account"] == nil && object?["status"] as? Int == 201)
        #expect(object?["duration_ms"] as? Double == 0.04, "numbers are JSON numbers")
    }

    @Test("request durations are written in milliseconds with two decimals")
    func milliseconds() {
        #expect(RequestLogMiddleware.milliseconds(3_264) == "3.26")
        #expect(RequestLogMiddleware.milliseconds(3_265) == "3.27")
        #expect(RequestLogMiddleware.milliseconds(40) == "0.04")
        #expect(RequestLogMiddleware.milliseconds(0) == "0.00")
        #expect(RequestLogMiddleware.milliseconds(12_000_000) == "12000.00")
    }

    @Test("the log sink writes whole lines in order: held back until a warning, the size bound or a flush")
    func sink() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let sink = LogSink(descriptor: fds[1], interval: .seconds(3_600))
        sink.append(Array("one\n".utf8), urgent: false)
        var probe = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&probe, 1, 50) == 0, "an info line waits for the batch")
        sink.append(Array("two\n".utf8), urgent: true)
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fds[0], &buffer, 64)
        #expect(String(decoding: buffer.prefix(max(0, n)), as: UTF8.self) == "one\ntwo\n")
    }

    @Test("geoserve config prints the effective settings as an environment file, the database password masked")
    func configPrinted() throws {
        let options = try ServeOptions.parse(["--database", "postgres://geoserve:s3cret-pw@db.campus.example/geoserve", "--keys", "/etc/geoserve/geoserve.keys",
                                              "--metrics-allow", "10.0.0.0/8", "--shutdown-grace", "30", "--account-writes-per-minute", "5"])
        let text = ConfigCommand.render(try options.configuration())
        #expect(!text.contains("s3cret-pw"))
        #expect(text.contains("GEOSERVE_DATABASE=postgres://geoserve@db.campus.example/geoserve\n"), "printed without its password, so it reads back")
        #expect(text.contains("# GEOSERVE_DATABASE: the password in the given URI is not printed"))
        #expect(text.contains("GEOSERVE_METRICS_ALLOW=10.0.0.0/8\n"))
        #expect(text.contains("GEOSERVE_SHUTDOWN_GRACE=30\n"))
        #expect(text.contains("GEOSERVE_ACCOUNT_WRITES_PER_MINUTE=5\n"))
        #expect(text.contains("GEOSERVE_PUBLISH_AT=06:00\n"))
        #expect(text.contains("GEOSERVE_INDEX_CACHE=\(FileManager.default.currentDirectoryPath)/var/index-cache\n"), "PostgreSQL's saved indexes default to var/")
        // The password file libpq reads, printed for a PostgreSQL store, so the printed file reads back.
        let passwordFile = NSTemporaryDirectory() + "geoserve-no-such-pgpass-\(UUID().uuidString)"
        setenv("PGPASSFILE", passwordFile, 1)
        let withPasswordFile = ConfigCommand.render(try options.configuration())
        unsetenv("PGPASSFILE")
        #expect(withPasswordFile.contains("PGPASSFILE=\(passwordFile)\n"))
        #expect(!ConfigCommand.render(try ServeOptions.parse(["--database", "/srv/geoserve/geoserve.sqlite"]).configuration()).contains("PGPASSFILE="))
        let sqlite = ConfigCommand.render(try ServeOptions.parse(["--database", "/srv/geoserve/geoserve.sqlite"]).configuration())
        #expect(sqlite.contains("GEOSERVE_INDEX_CACHE=/srv/geoserve/index-cache\n"), "beside a SQLite file")
        let none = ConfigCommand.render(try ServeOptions.parse(["--index-cache", "none"]).configuration())
        #expect(none.contains("GEOSERVE_INDEX_CACHE=none\n"))
        #expect(none.contains("GEOSERVE_BASEMAP=\n"), "no base map unless set")
        let base = ConfigCommand.render(try ServeOptions.parse(["--basemap", "https://tile.example.org/{z}/{x}/{y}.png",
                                                                "--basemap-attribution", "© Example contributors"]).configuration())
        #expect(base.contains("GEOSERVE_BASEMAP=https://tile.example.org/{z}/{x}/{y}.png\nGEOSERVE_BASEMAP_ATTRIBUTION=© Example contributors\n"))
        // A base map without its attribution, or an attribution without a base map, is refused with why.
        for arguments in [["--basemap", "https://tile.example.org/{z}/{x}/{y}.png"], ["--basemap-attribution", "x"], ["--basemap", "tiles/{z}/{x}/{y}", "--basemap-attribution", "x"]] {
            #expect(throws: ValidationError.self, "\(arguments)") { try ServeOptions.parse(arguments).configuration() }
        }
        // A primary and its standby in one libpq URI: printed whole, without the password, and read
        // back as the same location; masked in logs.
        let pair = "postgres://geoserve:s3cret@db1.campus.example:5432,db2.campus.example:5432/geoserve?target_session_attrs=read-write&password=p2&sslmode=require"
        let printed = ConfigCommand.render(try ServeOptions.parse(["--database", pair, "--keys", "k"]).configuration())
        #expect(printed.contains("GEOSERVE_DATABASE=postgres://geoserve@db1.campus.example:5432,db2.campus.example:5432/geoserve?target_session_attrs=read-write&sslmode=require\n"), "\(printed)")
        #expect(!printed.contains("s3cret") && !printed.contains("p2&"))
        #expect(try StoreLocation(pair).description
            == "postgres://geoserve:***@db1.campus.example:5432,db2.campus.example:5432/geoserve?target_session_attrs=read-write&password=***&sslmode=require")
        // Webhooks: the receiver's token in the address and the signing secret are masked too.
        let secretFile = NSTemporaryDirectory() + "geoserve-webhook-secret-\(UUID().uuidString)"
        try "a-signing-secret-of-more-than-32-characters\n".write(toFile: secretFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: secretFile) }
        let hooks = ConfigCommand.render(try ServeOptions.parse(["--webhooks", "https://hooks.campus.example/in?token=tok-123",
                                                                 "--webhook-secret-file", secretFile]).configuration())
        #expect(hooks.contains("GEOSERVE_WEBHOOKS=https://hooks.campus.example/in?***\n") && hooks.contains("GEOSERVE_WEBHOOK_SECRET_FILE=\(secretFile)\n"))
        #expect(hooks.contains("# GEOSERVE_WEBHOOKS: an address holding a token is masked"))
        // Masked values read back are refused, never taken as an address or a password.
        #expect(throws: (any Error).self) { try ServeOptions.parse(["--webhooks", "https://hooks.campus.example/in?***", "--webhook-secret-file", secretFile]).configuration() }
        #expect(throws: (any Error).self) { try ServeOptions.parse(["--database", "postgres://geoserve:***@db.campus.example/geoserve", "--keys", "k"]).configuration() }
        #expect(!hooks.contains("tok-123") && !hooks.contains("signing-secret"))
        #expect(throws: (any Error).self) { try ServeOptions.parse(["--webhooks", "https://hooks.campus.example/in"]).configuration() }
        #expect(throws: (any Error).self) { try ServeOptions.parse(["--drain-delay", "30"]).configuration() }
        #expect(throws: (any Error).self) { try ServeOptions.parse(["--log-format", "xml"]).configuration() }
    }
}
