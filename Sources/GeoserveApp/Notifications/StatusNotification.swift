import DomainKernel
import Foundation
import Storage

/// The body of a status notification: the event's stable id (a repeat carries the same one),
/// what happened and when, and of the report only its id, kind and new status — a receiver
/// that needs more asks the API with a verifier's token.
struct StatusNotification: Encodable {
    struct ReportPart: Encodable {
        let id: String
        let kind: String
        let status: String
    }

    let id: String
    let type = "report.status_changed"
    let at: String
    let report: ReportPart

    init(_ event: OutboxEvent) {
        id = event.id
        at = Timestamp.format(event.at)
        report = ReportPart(id: event.reportID, kind: event.kind.rawValue, status: event.status.rawValue)
    }

    var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }
}
