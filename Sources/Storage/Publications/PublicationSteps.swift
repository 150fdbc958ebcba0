import Aggregation
import DomainKernel
import Foundation

/// The reads and writes of one publication inside a backend's transaction: each backend gives
/// only its SQL, and `publish` holds the rule once — the order of the steps, the refusal of a
/// day before the latest, which areas are looked up, what the record counts, and that the data
/// version moves.
public protocol PublicationSteps {
    func latestPublication() throws -> PublicationRecord?
    /// The ledger lines and the geography the last publication saw.
    func ledger(lastDay: Day?) throws -> PublicationLedger
    /// The published version of each area layer (0 for one without a published version).
    func geography() throws -> [String: Int]
    /// The stored geometry text of `areas` of one version of a layer (nil: of every area), by
    /// area: what the maps' answers about lines' origins (`AreaSuccessions`) and lines'
    /// identities (`LineIdentities`) are computed from.
    func geometries(layer: String, version: Int, areas: Set<String>?) throws -> [String: String]
    /// Verified reports by kind, verification day, area class and line; a report outside every
    /// area is in no class and counts nowhere.
    func verifiedByClass() throws -> [VerifiedClassCount]
    func insert(_ record: PublicationRecord) throws
    /// Writes lines that are new or changed; `geography`, when given, replaces the stored one.
    func write(lines: [LedgerLine], geography: [String: Int]?) throws
    /// Appends a publication's blocks in their order.
    func insert(blocks: [PublishedBlock], publication: Int64) throws
    /// Records which line each verified report new to the ledger is accounted to now.
    func assign(_ assignments: [LineAssignment]) throws
    func bumpDataVersion() throws
}

extension PublicationSteps {
    /// Plans and records a publication (see `PublicationStore.publish`); the caller runs it in a
    /// transaction that excludes every report change.
    public func publish(_ request: PublicationRequest) throws -> PublicationRecord? {
        let day = request.day, at = request.at
        let latest = try latestPublication()
        if let slot = request.slot, let latest, latest.publishedAt >= slot { return nil }
        if let latest, day < latest.day { throw PublicationError.dayBeforeLatest(latest: latest.day) }
        let ledger = try ledger(lastDay: latest?.day)
        let geography = try geography()
        // Where layers changed, the lines' classes follow their origins on the maps: the maps
        // answer, from geometry alone, before anything is planned.
        let answers = try AreaSuccessions.answer(PublicationPlanner.questions(ledger: ledger, geography: geography)) {
            try geometries(layer: $0, version: $1, areas: $2)
        }
        let verified = try verifiedByClass()
        // Which line new reports join is the maps' too: their class's identity on them.
        let identities = try LineIdentities.answer(PublicationPlanner.identityQuestions(ledger: ledger, verified: verified, geography: geography)) {
            try geometries(layer: $0, version: $1, areas: $2)
        }
        let input = PublicationInput(latest: latest, ledger: ledger, verified: verified, geography: geography, answers: answers, identities: identities)
        let planned = request.planning.plan(input, day: day)
        let record = PublicationRecord(id: (latest?.id ?? 0) + 1, day: day, publishedAt: at, blocks: planned.blocks.count,
                                       linesMoved: planned.movedLines, k: request.planning.k)
        try insert(record)
        // Only the lines that changed: a publication after one verification changes one line of
        // a layer's thousands (the whole ledger rewritten took seconds at 300,000 areas).
        try write(lines: planned.ledger.changes(since: ledger), geography: planned.ledger.geography == ledger.geography ? nil : planned.ledger.geography)
        if !planned.blocks.isEmpty { try insert(blocks: planned.blocks, publication: record.id) }
        if !planned.assignments.isEmpty { try assign(planned.assignments) }
        // Public numbers moved: caches and ETags keyed by the data version follow.
        try bumpDataVersion()
        return record
    }
}
