import Foundation
import ReportVerification

/// Where a report was placed in one layer.
public struct AreaAssignment: Hashable, Sendable, Codable {
    public let layer: String
    public let layerVersion: Int
    public let areaID: String

    public init(layer: String, layerVersion: Int, areaID: String) {
        self.layer = layer
        self.layerVersion = layerVersion
        self.areaID = areaID
    }
}

/// A report as stored: the typed report travels as JSON (`payload`, encoded by
/// `ReportVerification`); the columns the store queries and guards are kept beside it.
public struct ReportRecord: Hashable, Sendable {
    public let id: String
    /// `covid` or `misconduct`.
    public let kind: String
    public var status: ReportStatus
    /// Increases with every change; transitions and edits may require the version they read.
    public var version: Int
    /// The submitting account, nil for an anonymous report.
    public let reporterID: String?
    public let submittedAt: Date
    public var updatedAt: Date
    /// Day of the test date or incident, `YYYY-MM-DD` in the campus time zone.
    public var occurredOn: String
    public var payload: Data
    /// Exact location; never public.
    public var lon: Double?
    public var lat: Double?
    public var areas: [AreaAssignment]
    /// Campus day of the latest transition into `verified`, `YYYY-MM-DD`; nil if never verified.
    public var verifiedOn: String?
    /// The statistics breakdown group (a covid reporter's affiliation), "" for none.
    public var group: String

    public init(id: String, kind: String, status: ReportStatus, version: Int, reporterID: String?, submittedAt: Date, updatedAt: Date,
                occurredOn: String, payload: Data, lon: Double?, lat: Double?, areas: [AreaAssignment],
                verifiedOn: String? = nil, group: String = "") {
        self.verifiedOn = verifiedOn
        self.group = group
        self.id = id
        self.kind = kind
        self.status = status
        self.version = version
        self.reporterID = reporterID
        self.submittedAt = submittedAt
        self.updatedAt = updatedAt
        self.occurredOn = occurredOn
        self.payload = payload
        self.lon = lon
        self.lat = lat
        self.areas = areas
    }
}

/// A submission to store: the record plus how a retry is recognised.
public struct ReportSubmission: Sendable {
    public let record: ReportRecord
    /// Client-chosen key; a second submission with the same key by the same submitter returns the
    /// first report and stores nothing.
    public let idempotencyKey: String?
    public init(record: ReportRecord, idempotencyKey: String?) {
        self.record = record
        self.idempotencyKey = idempotencyKey
    }
}

/// An earlier report of the same reporter and kind, for rules such as "one covid self-report
/// per 14 days", checked inside the transaction that stores the new one.
public struct PriorReport: Hashable, Sendable {
    public let id: String
    public let submittedAt: Date
    public let status: ReportStatus
}

/// What a submission did.
public enum SubmissionOutcome: Hashable, Sendable {
    /// Stored now.
    case created(ReportRecord)
    /// A retry: the report stored earlier under the same idempotency key.
    case replayed(ReportRecord)

    public var record: ReportRecord {
        switch self {
        case .created(let r), .replayed(let r): return r
        }
    }
}

/// One entry of the append-only audit trail. Each entry's hash covers its content and the
/// previous entry's hash, so an edited or deleted entry breaks the chain.
public struct AuditEntry: Hashable, Sendable, Codable {
    public let sequence: Int
    public let reportID: String?
    /// Account id, or `anonymous` / `system`.
    public let actor: String
    public let at: Date
    public let action: String
    public let fromStatus: ReportStatus?
    public let toStatus: ReportStatus?
    public let reason: String?
    public let hash: String
}

/// Why a change of a report was refused.
public enum ReportChangeError: Error, Equatable, Sendable {
    /// The transition does not apply to the current status, or a reason is missing.
    case transition(TransitionError, current: ReportStatus)
    /// The report changed since the caller read it.
    case staleVersion(current: Int, status: ReportStatus)
    /// No such report.
    case notFound
}

/// Persistence of reports, their transitions and the audit trail.
public protocol ReportStore: Sendable {
    /// Stores a new report durably (the call returns after the commit reached the disk), or
    /// returns the earlier one for a repeated idempotency key. `check` sees the submitter's prior
    /// reports of the same kind inside the same transaction and throws to refuse.
    func submit(_ submission: ReportSubmission, check: @escaping @Sendable ([PriorReport]) throws -> Void) async throws -> SubmissionOutcome

    /// The report, or nil.
    func report(id: String) async throws -> ReportRecord?

    /// Applies a status transition in one transaction with its audit entry. With
    /// `expectedVersion`, the change only applies to that version (optimistic concurrency).
    func transition(reportID: String, _ transition: ReportTransition, reason: String?, actor: String,
                    expectedVersion: Int?) async throws -> ReportRecord

    /// The audit entries of one report, oldest first.
    func history(reportID: String) async throws -> [AuditEntry]

    /// Recomputes the audit chain; returns the sequence number of the first entry that does not
    /// match, or nil when the chain is intact.
    func verifyAuditChain() async throws -> Int?
}

/// Which reports the verification queue shows.
public struct QueueFilter: Hashable, Sendable {
    public var statuses: [ReportStatus]
    public var kind: String?
    public var layer: String?
    public var areaID: String?
    /// Occurrence day bounds, `YYYY-MM-DD`, inclusive.
    public var from: String?
    public var to: String?

    public init(statuses: [ReportStatus] = [.pending], kind: String? = nil, layer: String? = nil, areaID: String? = nil,
                from: String? = nil, to: String? = nil) {
        self.statuses = statuses
        self.kind = kind
        self.layer = layer
        self.areaID = areaID
        self.from = from
        self.to = to
    }
}

/// A page of the queue and the cursor of the next one.
public struct QueuePage: Hashable, Sendable {
    public let reports: [ReportRecord]
    /// Opaque; nil on the last page.
    public let nextCursor: String?
}

/// A verifier's claim on a report: others see who holds it until it expires.
public struct ReportClaim: Hashable, Sendable, Codable {
    public let reportID: String
    public let holder: String
    public let expiresAt: Date
}

/// Why a claim was refused.
public enum ClaimError: Error, Equatable, Sendable {
    case heldByOther(ReportClaim)
    case notFound
}

/// The verification queue, review claims and viewer grants.
public protocol VerificationStore: Sendable {
    /// Reports in queue order: the filter's statuses in the order given (pending first by
    /// default), then oldest submission first; `cursor` continues a previous page.
    func queue(_ filter: QueueFilter, limit: Int, cursor: String?) async throws -> QueuePage

    /// Claims a report for `holder` until `expiresAt`; renews the holder's own claim; refuses
    /// while another holder's claim is live.
    func claim(reportID: String, holder: String, until expiresAt: Date, now: Date) async throws -> ReportClaim

    /// Releases a claim held by `holder` (no-op otherwise).
    func release(reportID: String, holder: String) async throws

    /// The live claim on a report, if any.
    func claim(reportID: String, now: Date) async throws -> ReportClaim?

    /// Grants a viewer read access to a report.
    func grant(reportID: String, viewerID: String, by admin: String) async throws

    /// Withdraws a grant.
    func revokeGrant(reportID: String, viewerID: String, by admin: String) async throws

    /// Whether the viewer was granted the report.
    func isGranted(reportID: String, viewerID: String) async throws -> Bool

    /// Ids of the reports granted to a viewer.
    func grantedReports(viewerID: String) async throws -> [String]
}

/// One kept state of a report's content.
public struct ReportRevision: Hashable, Sendable, Codable {
    public let reportID: String
    /// 1 for the submitted content, then one more per edit or restore.
    public let revision: Int
    public let at: Date
    public let actor: String
    public let occurredOn: String
    public let lon: Double?
    public let lat: Double?
    public let areas: [AreaAssignment]
    public let payload: Data
}

/// New content for a report.
public struct ReportEdit: Sendable {
    public let occurredOn: String
    public let lon: Double?
    public let lat: Double?
    public let areas: [AreaAssignment]
    public let payload: Data

    public init(occurredOn: String, lon: Double?, lat: Double?, areas: [AreaAssignment], payload: Data) {
        self.occurredOn = occurredOn
        self.lon = lon
        self.lat = lat
        self.areas = areas
        self.payload = payload
    }
}

/// Edits with kept revisions: every change of content makes a revision; only the newest `keep`
/// are kept; a kept one can be restored, which is itself a new revision.
public protocol RevisionStore: Sendable {
    /// Replaces the report's content in one transaction: revision, audit entry, area
    /// re-assignment and data version. `allowed` sees the current report and throws to refuse.
    func edit(reportID: String, _ edit: ReportEdit, actor: String, expectedVersion: Int?, keep: Int,
              allowed: @escaping @Sendable (ReportRecord) throws -> Void) async throws -> ReportRecord

    /// The kept revisions, newest first.
    func revisions(reportID: String) async throws -> [ReportRevision]

    /// Makes a kept revision current again (as a new revision).
    func restore(reportID: String, revision: Int, actor: String, expectedVersion: Int?, keep: Int,
                 allowed: @escaping @Sendable (ReportRecord) throws -> Void) async throws -> ReportRecord
}

/// Read-only searches for public outputs. Only verified reports are ever returned.
public protocol PublicReportSearch: Sendable {
    /// Verified reports of a kind placed in an area, newest occurrence first.
    func verifiedReports(kind: String, layer: String, areaID: String, limit: Int) async throws -> [ReportRecord]

    /// Verified reports of a kind whose stored location lies within a box, newest occurrence
    /// first; the caller refines the box to a circle.
    func verifiedReports(kind: String, within box: (west: Double, south: Double, east: Double, north: Double), limit: Int) async throws -> [ReportRecord]
}
