import DomainKernel
import Foundation

/// One kept state of a report's content.
public struct ReportRevision: Hashable, Sendable, Codable {
    public let reportID: String
    /// 1 for the submitted content, then one more per edit or restore.
    public let revision: Int
    public let at: Date
    public let actor: String
    public let occurredOn: Day
    public let lon: Double?
    public let lat: Double?
    public let areas: [AreaAssignment]
    public let payload: Data

    public init(reportID: String, revision: Int, at: Date, actor: String, occurredOn: Day, lon: Double?, lat: Double?, areas: [AreaAssignment], payload: Data) {
        self.reportID = reportID
        self.revision = revision
        self.at = at
        self.actor = actor
        self.occurredOn = occurredOn
        self.lon = lon
        self.lat = lat
        self.areas = areas
        self.payload = payload
    }
}

extension ReportRevision {
    /// The areas as the revisions table keeps them: a JSON array.
    public var areasJSON: String {
        String(decoding: (try? JSONEncoder().encode(areas)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// Areas read back from `areasJSON`; none for text that is not such an array.
    public static func areas(fromJSON text: String) -> [AreaAssignment] {
        (try? JSONDecoder().decode([AreaAssignment].self, from: Data(text.utf8))) ?? []
    }
}
