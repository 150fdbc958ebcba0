/// Where a report happened: a measured location, or an area picked from a layer (the COVID
/// form's residence-hall menu). Exactly one of the two.
public enum ReportPlace: Hashable, Sendable {
    case location(lon: Double, lat: Double, accuracyMetres: Double?)
    case area(layer: String, areaID: String)
}

extension ReportPlace: Codable {
    private enum Key: String, CodingKey { case location, area }
    private struct Location: Codable { let lon: Double; let lat: Double; let accuracyM: Double? }
    private struct Area: Codable { let layer: String; let id: String }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        if let l = try c.decodeIfPresent(Location.self, forKey: .location) {
            self = .location(lon: l.lon, lat: l.lat, accuracyMetres: l.accuracyM)
        } else {
            let a = try c.decode(Area.self, forKey: .area)
            self = .area(layer: a.layer, areaID: a.id)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .location(let lon, let lat, let accuracy): try c.encode(Location(lon: lon, lat: lat, accuracyM: accuracy), forKey: .location)
        case .area(let layer, let id): try c.encode(Area(layer: layer, id: id), forKey: .area)
        }
    }
}
