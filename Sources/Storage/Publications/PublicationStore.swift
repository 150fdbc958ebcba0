import Aggregation
import DomainKernel
import Foundation

/// Publications: the only moments public numbers change. Each records the blocks the planner
/// released and the ledger it leaves, in one transaction that excludes every report change, so
/// what was counted and what was accounted for cannot drift apart; processes publishing at once
/// are ordered by that transaction and the second sees the first's ledger.
public protocol PublicationStore: Sendable {
    /// Plans and records a publication on `day`: `plan` runs inside the transaction on what the
    /// store holds at that moment and returns the blocks to release and the ledger to keep.
    /// Throws `PublicationError.dayBeforeLatest` when `day` is before the latest publication's.
    func publish(day: Day, at: Date, plan: @escaping @Sendable (PublicationInput) throws -> PublicationPlan) async throws -> PublicationRecord

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

    public init(id: Int64, day: Day, publishedAt: Date, blocks: Int, linesMoved: Int = 0) {
        self.id = id
        self.day = day
        self.publishedAt = publishedAt
        self.blocks = blocks
        self.linesMoved = linesMoved
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
    /// Of the areas the ledger's lines name in layers changed since the last publication, those
    /// their layers' published versions hold.
    public let existingAreas: Set<AreaRef>

    public init(latest: PublicationRecord?, ledger: PublicationLedger, verified: [VerifiedClassCount], geography: [String: Int] = [:],
                existingAreas: Set<AreaRef> = []) {
        self.latest = latest
        self.ledger = ledger
        self.verified = verified
        self.geography = geography
        self.existingAreas = existingAreas
    }
}

/// A publication that cannot be made.
public enum PublicationError: Error, Equatable {
    /// Publications are made in day order: numbers once published as of a day are never
    /// published again with another protection.
    case dayBeforeLatest(latest: Day)
}
