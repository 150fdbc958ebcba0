import Aggregation
import DomainKernel
import Foundation

/// Publications: the only moments public numbers change. Each records the blocks the planner
/// released and the ledger it leaves, in one transaction that excludes every report change, so
/// what was counted and what was accounted for cannot drift apart; processes publishing at once
/// are ordered by that transaction and the second sees the first's ledger.
public protocol PublicationStore: Sendable {
    /// Plans and records a publication: the request's planning decides, inside the transaction,
    /// on what the store holds at that moment, the blocks to release and the ledger to keep.
    /// Nil when the request is for a slot a publication already took (another process made it).
    /// Throws `PublicationError.dayBeforeLatest` when the day is before the latest publication's.
    func publish(_ request: PublicationRequest) async throws -> PublicationRecord?

    /// The publications after `publication` (0: all), oldest first.
    func publications(after publication: Int64) async throws -> [PublicationRecord]

    /// The blocks released by publications after `publication` (0: all), in publication order.
    func publishedBlocks(after publication: Int64) async throws -> [PublishedBlock]
}

extension PublicationStore {
    /// Every publication, oldest first.
    public func publications() async throws -> [PublicationRecord] {
        try await publications(after: 0)
    }
}

/// A publication as anyone may see it.
public struct PublicationRecord: Hashable, Sendable {
    /// Publications are numbered 1, 2, … in the order they were made.
    public let id: Int64
    /// The day its windows end on, in the service's time zone.
    public let day: Day
    public let publishedAt: Date
    /// How many blocks it released.
    public let blocks: Int
    /// How many ledger lines it gave another class (areas changed): their blocks, released by
    /// this publication and earlier ones, now count for the new class, so a reader holding older
    /// blocks reads them again.
    public let linesMoved: Int
    /// The public k its blocks were released under (`--k-public` then); nil for a publication
    /// made before publications recorded it.
    public let k: Int?

    public init(id: Int64, day: Day, publishedAt: Date, blocks: Int, linesMoved: Int = 0, k: Int? = nil) {
        self.id = id
        self.day = day
        self.publishedAt = publishedAt
        self.blocks = blocks
        self.linesMoved = linesMoved
        self.k = k
    }
}

/// What a publication is planned from.
public struct PublicationInput: Sendable {
    public let latest: PublicationRecord?
    public let ledger: PublicationLedger
    /// Verified reports by kind, area class (over the area layers), the ledger line they were
    /// accounted to and verification day.
    public let verified: [VerifiedClassCount]
    /// The published version of each area layer.
    public let geography: [String: Int]
    /// The maps' answers about the lines' origins where layers changed since the last
    /// publication (`PublicationPlanner.questions`).
    public let answers: [AreaSuccession: String]
    /// The identities of the classes new reports lie in and of lines kept before identities
    /// were (`PublicationPlanner.identityQuestions`).
    public let identities: [ClassOnMaps: String]

    public init(latest: PublicationRecord?, ledger: PublicationLedger, verified: [VerifiedClassCount], geography: [String: Int] = [:],
                answers: [AreaSuccession: String] = [:], identities: [ClassOnMaps: String] = [:]) {
        self.latest = latest
        self.ledger = ledger
        self.verified = verified
        self.geography = geography
        self.answers = answers
        self.identities = identities
    }
}

/// A publication that cannot be made.
public enum PublicationError: Error, Equatable {
    /// Publications are made in day order: numbers once published as of a day are never
    /// published again with another protection.
    case dayBeforeLatest(latest: Day)
}

/// How a publication's blocks are decided from what the store read in its transaction: the
/// disclosure rule as a value (pure and non-throwing), so no code of a caller's runs inside the
/// store's transaction.
public protocol PublicationPlanning: Sendable {
    func plan(_ input: PublicationInput, day: Day) -> PublicationPlan
    /// The public k the plan protects with, recorded with the publication.
    var k: Int { get }
}

/// The service's planning: the disclosure planner over the schedule's publication days (a first
/// publication replays history in their intervals).
public struct ScheduledPlanning: PublicationPlanning {
    public let planner: PublicationPlanner
    public let days: PublicationDays

    public init(planner: PublicationPlanner, days: PublicationDays = .daily) {
        self.planner = planner
        self.days = days
    }

    public func plan(_ input: PublicationInput, day: Day) -> PublicationPlan {
        planner.plan(ledger: input.ledger, verified: input.verified, day: day, geography: input.geography,
                     answers: input.answers, identities: input.identities, days: days)
    }

    public var k: Int { planner.policy.threshold(for: .public) }
}

/// A publication asked for.
public struct PublicationRequest: Sendable {
    /// The day its windows end on.
    public let day: Day
    public let at: Date
    public let planning: any PublicationPlanning
    /// For a scheduled publication, the slot it is for: nothing is made when a publication at or
    /// after it exists.
    public let slot: Date?

    public init(day: Day, at: Date, planning: any PublicationPlanning, slot: Date? = nil) {
        self.day = day
        self.at = at
        self.planning = planning
        self.slot = slot
    }
}
