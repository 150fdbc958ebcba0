import Aggregation
import ArgumentParser
import GeoserveApp

/// How numbers are protected and when they are published: the same for `serve` and `publish`,
/// since every publication continues the ledger the one before left.
struct PublicationOptions: ParsableArguments {
    @Option(name: .customLong("k-public"), help: "Protection threshold k: a count is published only in blocks of more than k reports (env GEOSERVE_K_PUBLIC, default 11).")
    var kPublic: Int?

    @Option(name: .customLong("publish-at"), help: ArgumentHelp("When numbers are published, in the service's time zone: times of day HH:MM (every day) or a weekday and a time (mon 06:00), comma-separated, or never (env GEOSERVE_PUBLISH_AT, default 06:00). A quiet campus publishes weekly: a publication releases a kind only when its interval saw more than k changes of it.", valueName: "times"))
    var publishAt: String?

    /// The disclosure policy with the threshold in effect.
    func policy() throws -> DisclosurePolicy {
        var policy = DisclosurePolicy.default
        let k = try EnvironmentDefault.int(kPublic, "GEOSERVE_K_PUBLIC", policy.threshold(for: .public))
        guard (1...1_000_000).contains(k) else { throw ValidationError("GEOSERVE_K_PUBLIC must be at least 1") }
        policy.thresholds[.public] = k
        policy.thresholds[.researcher] = k
        return policy
    }

    /// The schedule in effect.
    func schedule() throws -> PublicationSchedule {
        let text = EnvironmentDefault.string(publishAt, "GEOSERVE_PUBLISH_AT", "06:00")
        guard let schedule = PublicationSchedule(text) else {
            throw ValidationError("publish-at must be times of day HH:MM or weekdays with times (mon 06:00) separated by commas, or never (got \"\(text)\")")
        }
        return schedule
    }
}
