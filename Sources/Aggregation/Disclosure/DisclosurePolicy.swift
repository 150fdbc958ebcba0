import DomainKernel

/// The smallest count k that may be shown to each audience (0 is always shown as a true zero).
public struct DisclosurePolicy: Sendable, Equatable {
    /// k per audience; an audience without an entry gets `fallbackThreshold`.
    public var thresholds: [Audience: Int]

    /// Kinds whose verified reports are public records: the public search lists each of them
    /// (date, area, officer and incident description), so their counts are published exactly and
    /// at once; suppressing a number anyone can count from the search would protect nothing.
    public var publicRecordKinds: Set<ReportKind>

    /// Creates a policy.
    public init(thresholds: [Audience: Int], publicRecordKinds: Set<ReportKind> = []) {
        self.thresholds = thresholds
        self.publicRecordKinds = publicRecordKinds
    }

    /// The threshold used for an audience missing from `thresholds`: the strictest default, so a
    /// forgotten entry can only hide more.
    public static let fallbackThreshold = 11

    /// k for one audience (at least 1: a threshold of 1 suppresses nothing).
    public func threshold(for audience: Audience) -> Int {
        max(1, thresholds[audience] ?? Self.fallbackThreshold)
    }

    /// The smallest net change of one ledger line (a kind in an area class) that a publication
    /// releases, and the smallest number of changed reports of a kind since its last release
    /// before anything of it is released again: 1 for public records, else the public k + 1.
    ///
    /// Why k + 1: a line is released on the first publication its unreleased change reaches the
    /// step, so an attacker knows the change before that publication was at most step − 1 and the
    /// change on the day itself at least block − (step − 1). With step = k + 1 both ranges are k
    /// wide, which is the protection interval the threat model asks of every small cell.
    public func releaseStep(for kind: ReportKind) -> Int {
        publicRecordKinds.contains(kind) ? 1 : threshold(for: .public) + 1
    }

    /// The k published numbers of a kind are protected with: the public k, or 1 for public records.
    public func publishedThreshold(for kind: ReportKind) -> Int {
        publicRecordKinds.contains(kind) ? 1 : threshold(for: .public)
    }

    /// The defaults and why:
    /// - public k = 11: the CMS cell-size rule (no cell of 1–10, nor anything from which one can be
    ///   derived) is the strictest common practice, and the counts here are of people in small,
    ///   known places (a residence hall, one police beat) where a count of 5 can still name
    ///   someone; CDC WONDER's ≤ 9 and the < 5 of county dashboards were made for much larger
    ///   populations.
    /// - researcher k = 11: researchers get finer cuts (daily buckets, several bases) and exported
    ///   files leave our control, so nothing argues for a lower k than the public one. The source
    ///   documents' "groups only above 1,000 people" is about the population behind a breakdown,
    ///   not the count; we cannot check it here, which is one more reason not to go lower.
    /// - verifier k = 1 (no suppression): verifiers read the individual reports already.
    /// - misconduct reports are public records: the source system publishes each verified report
    ///   for search, which already gives every count by area and day.
    public static let `default` = DisclosurePolicy(thresholds: [.public: 11, .researcher: 11, .verifier: 1], publicRecordKinds: [.misconduct])
}
