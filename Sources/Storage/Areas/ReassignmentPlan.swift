import DomainKernel
import Foundation
import ReportVerification

/// What publishing a new version of a layer does to the stored reports: which report moves to
/// which area of the new version, and the counter changes of all the moves together.
///
/// Backend-neutral: a backend reads every report with its areas, asks for the plan, and runs the
/// plan's row changes and counter changes in the publishing transaction.
public struct ReassignmentPlan: Sendable {
    /// One report's row change: its area in the layer becomes `area` of the new version (nil: it
    /// lies in no area of the layer and its row is removed).
    public struct Move: Sendable, Equatable {
        public let reportID: String
        public let area: String?
    }

    /// Reports whose row in the layer changes (a new area, or the same area of a new version).
    public private(set) var moves: [Move] = []
    /// Summed counter changes of the moves.
    public private(set) var counters: CounterChanges
    /// Reports that changed area (not counting those that only followed the version).
    public private(set) var moved = 0

    /// Plans the re-assignment of `reports` to version `version` of `layer`.
    public init(layer: String, version: Int, reports: [ReportRecord], resolve: AreaResolver, zone: TimeZone) {
        counters = CounterChanges(zone: zone)
        let decoder = JSONDecoder()
        for var r in reports {
            var named: (layer: String, area: String)?
            if r.lon == nil, let report = try? decoder.decode(Report.self, from: r.payload), case .area(let ref) = report.place {
                named = (ref.layer, ref.areaID)
            }
            let current = r.areas.first { $0.layer == layer }
            let target = resolve(ReportPosition(reportID: r.id, lon: r.lon, lat: r.lat, namedLayer: named?.layer, namedArea: named?.area,
                                                placedArea: current?.areaID))
            if current?.areaID == target && current?.layerVersion == version { continue }
            let before = r
            r.areas.removeAll { $0.layer == layer }
            if let target {
                r.areas.append(AreaAssignment(layer: layer, layerVersion: version, areaID: target))
                r.areas.sort { $0.layer < $1.layer }
            }
            counters.add(from: before, to: r)
            moves.append(Move(reportID: r.id, area: target))
            if current?.areaID != target { moved += 1 }
        }
    }
}
