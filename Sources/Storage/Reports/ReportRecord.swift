import DomainKernel
import Foundation
import ReportVerification

/// A report as stored: the typed report travels as JSON (`payload`, encoded by
/// `ReportVerification`); the columns the store queries and guards are kept beside it.
public struct ReportRecord: Hashable, Sendable {
    public let id: String
    public let kind: ReportKind
    public var status: ReportStatus
    /// Increases with every change; transitions and edits may require the version they read.
    public var version: Int
    /// The submitting account, nil for an anonymous report.
    public let reporterID: String?
    public let submittedAt: Date
    public var updatedAt: Date
    /// Day of the test date or incident in the campus time zone.
    public var occurredOn: Day
    public var payload: Data
    /// Exact location; never public.
    public var lon: Double?
    public var lat: Double?
    public var areas: [AreaAssignment]
    /// Campus day of the latest transition into `verified`; nil if never verified.
    public var verifiedOn: Day?
    /// The statistics breakdown group (a covid reporter's affiliation), nil for none.
    public var group: BreakdownGroup?

    public init(id: String, kind: ReportKind, status: ReportStatus, version: Int, reporterID: String?, submittedAt: Date, updatedAt: Date,
                occurredOn: Day, payload: Data, lon: Double?, lat: Double?, areas: [AreaAssignment],
                verifiedOn: Day? = nil, group: BreakdownGroup? = nil) {
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
