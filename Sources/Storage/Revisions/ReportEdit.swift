import DomainKernel
import Foundation

/// New content for a report.
public struct ReportEdit: Sendable {
    public let occurredOn: Day
    public let lon: Double?
    public let lat: Double?
    public let areas: [AreaAssignment]
    public let payload: Data

    public init(occurredOn: Day, lon: Double?, lat: Double?, areas: [AreaAssignment], payload: Data) {
        self.occurredOn = occurredOn
        self.lon = lon
        self.lat = lat
        self.areas = areas
        self.payload = payload
    }
}
