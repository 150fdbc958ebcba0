import Aggregation
import DomainKernel
import Storage

/// Which numbers a request reads. The public and researchers read a publication: numbers that
/// move only when one is made, built from its released blocks, for one kind (COVID cases by
/// default; no sum of unrelated kinds) counted on the day they were released. Verifiers read the
/// live counters, any kind or basis, as they change.
struct StatisticsView: Sendable {
    let request: StatisticsRequest
    /// What caches and ETags are keyed by: the publication's id for published numbers (0 before
    /// the first), the data version for live ones — so nothing public changes between publications.
    let version: Int64
    /// The publication shown; nil for live numbers and before the first publication.
    let publication: PublicationRecord?
    let isLive: Bool

    /// The numbers shown, as caches and ETags name them.
    var numbers: CachedNumbers { isLive ? .live(dataVersion: version) : .publication(version) }

    /// The kind public numbers count when none is asked for.
    static let defaultPublicKind = ReportKind.covid

    /// The answer to `basis` outside the live view: published numbers have one basis.
    static let basisRefused = ParameterRefused(
        "published numbers count reports on the day a publication released them; basis is for verifiers' live view", field: "basis")
}
