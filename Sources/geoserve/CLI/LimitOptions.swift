import ArgumentParser
import Foundation
import GeoserveApp
import NIOCore
import Storage

/// What one client or one report may take from the service: attachment caps, the disk floor,
/// the budgets of writes per address and per account and of failed logins, whose
/// `X-Forwarded-For` is believed, and the time and number of connections.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("attachment-mb"), help: "Largest attachment file in MiB (env GEOSERVE_ATTACHMENT_MB, default 64).")
    var attachmentMB: Int?

    @Option(name: .customLong("report-attachments-mb"), help: "MiB of attachments one report may hold together (env GEOSERVE_REPORT_ATTACHMENTS_MB, default 256).")
    var reportAttachmentsMB: Int?

    @Option(name: .customLong("min-free-disk-mb"), help: "Uploads that would leave less free space on the attachments' disk are refused with 507; 0 disables (env GEOSERVE_MIN_FREE_DISK_MB, default 256).")
    var minFreeDiskMB: Int?

    @Option(name: .customLong("anonymous-per-minute"), help: "Anonymous reports and uploads per client address per minute; 0 disables (env GEOSERVE_ANONYMOUS_PER_MINUTE, default 30).")
    var anonymousPerMinute: Int?

    @Option(name: .customLong("anonymous-ipv6-prefix"), help: "Bits of an IPv6 client address that share one anonymous budget: one customer's network (env GEOSERVE_ANONYMOUS_IPV6_PREFIX, default 64).")
    var anonymousIPv6Prefix: Int?

    @Option(name: .customLong("max-pending-anonymous"), help: "Anonymous reports awaiting verification at once; past it anonymous intake answers 503 queue_full; 0 disables (env GEOSERVE_MAX_PENDING_ANONYMOUS, default 10000).")
    var maxPendingAnonymous: Int?

    @Option(name: .customLong("anonymous-upload-mb-per-hour"), help: "MiB of anonymous uploads per client address per hour; 0 disables (env GEOSERVE_ANONYMOUS_UPLOAD_MB_PER_HOUR, default 1024).")
    var anonymousUploadMBPerHour: Int?

    @Option(name: .customLong("account-writes-per-minute"), help: "Reports and uploads per signed-in account per minute; 0 disables (env GEOSERVE_ACCOUNT_WRITES_PER_MINUTE, default 60).")
    var accountWritesPerMinute: Int?

    @Option(name: .customLong("login-failures-per-account"), help: "Failed logins in 15 minutes from one address for one account before that pair is refused with 429, and from anywhere before addresses that have not signed in to it are (env GEOSERVE_LOGIN_FAILURES_PER_ACCOUNT, default 10).")
    var loginFailuresPerAccount: Int?

    @Option(name: .customLong("login-failures-per-address"), help: "Failed logins from one client address in 15 minutes before its logins are refused with 429 (env GEOSERVE_LOGIN_FAILURES_PER_ADDRESS, default 100).")
    var loginFailuresPerAddress: Int?

    @Option(name: .customLong("trusted-proxies"), help: ArgumentHelp("Comma-separated proxy addresses whose X-Forwarded-For names the client (env GEOSERVE_TRUSTED_PROXIES, default 127.0.0.1,::1).", valueName: "addresses"))
    var trustedProxies: String?

    @Option(name: .customLong("header-timeout"), help: "Seconds a client has to send a request's head (env GEOSERVE_HEADER_TIMEOUT, default 10).")
    var headerTimeout: Int?

    @Option(name: .customLong("keep-alive-timeout"), help: "Seconds an idle connection stays open between requests (env GEOSERVE_KEEP_ALIVE_TIMEOUT, default 60).")
    var keepAliveTimeout: Int?

    @Option(name: .customLong("body-timeout"), help: "Seconds a client has to send a request's body, plus one per 16 KiB of it (env GEOSERVE_BODY_TIMEOUT, default 20).")
    var bodyTimeout: Int?

    @Option(name: .customLong("max-connections"), help: "Connections open at once; more wait until one closes (env GEOSERVE_MAX_CONNECTIONS, default the file limit less 64, at most 4096).")
    var maxConnections: Int?

    func apply(to config: inout AppConfiguration) throws {
        let fileMB = try Self.megabytes(attachmentMB, "GEOSERVE_ATTACHMENT_MB", config.maxAttachmentBytes >> 20, allowZero: false)
        let reportMB = try Self.megabytes(reportAttachmentsMB, "GEOSERVE_REPORT_ATTACHMENTS_MB", config.attachmentLimits.totalBytes >> 20, allowZero: false)
        let floorMB = try Self.megabytes(minFreeDiskMB, "GEOSERVE_MIN_FREE_DISK_MB", Int(config.minFreeDiskBytes >> 20))
        let perMinute = try EnvironmentDefault.int(anonymousPerMinute, "GEOSERVE_ANONYMOUS_PER_MINUTE", config.anonymousPerMinute)
        let uploadMB = try Self.megabytes(anonymousUploadMBPerHour, "GEOSERVE_ANONYMOUS_UPLOAD_MB_PER_HOUR", config.anonymousUploadBytesPerHour >> 20)
        guard (0...1_000_000).contains(perMinute) else { throw ValidationError("GEOSERVE_ANONYMOUS_PER_MINUTE must be 0 to 1000000") }
        config.anonymousIPv6Prefix = try EnvironmentDefault.int(anonymousIPv6Prefix, "GEOSERVE_ANONYMOUS_IPV6_PREFIX", config.anonymousIPv6Prefix)
        guard (16...128).contains(config.anonymousIPv6Prefix) else { throw ValidationError("GEOSERVE_ANONYMOUS_IPV6_PREFIX must be 16 to 128 bits") }
        config.maxPendingAnonymous = try EnvironmentDefault.int(maxPendingAnonymous, "GEOSERVE_MAX_PENDING_ANONYMOUS", config.maxPendingAnonymous)
        guard (0...100_000_000).contains(config.maxPendingAnonymous) else { throw ValidationError("GEOSERVE_MAX_PENDING_ANONYMOUS must be 0 to 100000000") }
        for (flag, variable, path, least) in [(accountWritesPerMinute, "GEOSERVE_ACCOUNT_WRITES_PER_MINUTE", \AppConfiguration.accountWritesPerMinute, 0),
                                              (loginFailuresPerAccount, "GEOSERVE_LOGIN_FAILURES_PER_ACCOUNT", \AppConfiguration.loginFailuresPerAccount, 1),
                                              (loginFailuresPerAddress, "GEOSERVE_LOGIN_FAILURES_PER_ADDRESS", \AppConfiguration.loginFailuresPerAddress, 1)] {
            let v = try EnvironmentDefault.int(flag, variable, config[keyPath: path])
            guard (least...1_000_000).contains(v) else { throw ValidationError("\(variable) must be \(least) to 1000000") }
            config[keyPath: path] = v
        }
        config.maxAttachmentBytes = fileMB << 20
        config.attachmentLimits.totalBytes = reportMB << 20
        config.minFreeDiskBytes = Int64(floorMB) << 20
        config.anonymousPerMinute = perMinute
        config.anonymousUploadBytesPerHour = uploadMB << 20
        for (flag, variable, path) in [(headerTimeout, "GEOSERVE_HEADER_TIMEOUT", \ConnectionLimits.headerTimeout),
                                       (keepAliveTimeout, "GEOSERVE_KEEP_ALIVE_TIMEOUT", \ConnectionLimits.keepAliveTimeout),
                                       (bodyTimeout, "GEOSERVE_BODY_TIMEOUT", \ConnectionLimits.bodyTimeout)] {
            let fallback = Int(config.connectionLimits[keyPath: path].nanoseconds / 1_000_000_000)
            let seconds = try EnvironmentDefault.int(flag, variable, fallback)
            guard (1...3_600).contains(seconds) else { throw ValidationError("\(variable) must be 1 to 3600 seconds") }
            config.connectionLimits[keyPath: path] = .seconds(Int64(seconds))
        }
        config.maxConnections = try EnvironmentDefault.int(maxConnections, "GEOSERVE_MAX_CONNECTIONS", config.maxConnections)
        guard (1...1_000_000).contains(config.maxConnections) else { throw ValidationError("GEOSERVE_MAX_CONNECTIONS must be at least 1") }
        let proxies = EnvironmentDefault.string(trustedProxies, "GEOSERVE_TRUSTED_PROXIES", "")
        if !proxies.isEmpty {
            config.trustedProxies = Set(proxies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "none" })
        }
    }

    private static func megabytes(_ flag: Int?, _ variable: String, _ fallback: Int, allowZero: Bool = true) throws -> Int {
        let v = try EnvironmentDefault.int(flag, variable, fallback)
        guard (allowZero ? 0 : 1)...1_048_576 ~= v else { throw ValidationError("\(variable) must be \(allowZero ? 0 : 1) to 1048576 MiB") }
        return v
    }
}
