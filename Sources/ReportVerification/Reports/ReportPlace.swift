import DomainKernel

/// Where a report happened: a measured location, or an area picked from a layer (the COVID
/// form's residence-hall menu). Exactly one of the two, which an enum makes unrepresentable
/// otherwise.
public enum ReportPlace: Hashable, Sendable {
    /// A point in WGS 84 degrees, with the device's horizontal accuracy in metres when it gave one.
    case location(lon: Double, lat: Double, accuracyMetres: Double?)
    /// An area of an imported layer, named by the layer and the area's id (e.g. `halls`, `H07`).
    case area(AreaRef)
}

extension ReportPlace: Codable {
    private enum Key: String, CodingKey { case location, area }
    private struct Location: Codable { let lon: Double; let lat: Double; let accuracyM: Double? }
    private struct Area: Codable { let layer: String; let id: String }

    /// Decodes `{"location": {lon, lat, accuracyM?}}` or `{"area": {layer, id}}`.
    ///
    /// Strict on purpose: a stored payload with both or neither, or with coordinates GeoCore
    /// refuses, is corrupt, and silently picking one would move a report to another area.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        switch (c.contains(.location), c.contains(.area)) {
        case (true, false):
            let l = try c.decode(Location.self, forKey: .location)
            do { _ = try Position(lon: l.lon, lat: l.lat) } catch {
                throw DecodingError.dataCorruptedError(forKey: .location, in: c, debugDescription: error.description)
            }
            self = .location(lon: l.lon, lat: l.lat, accuracyMetres: l.accuracyM)
        case (false, true):
            let a = try c.decode(Area.self, forKey: .area)
            self = .area(AreaRef(layer: a.layer, areaID: a.id))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "a place is a location or an area, exactly one"))
        }
    }

    /// Encodes as the same one-key object the decoder reads.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .location(let lon, let lat, let accuracy):
            try c.encode(Location(lon: lon, lat: lat, accuracyM: accuracy), forKey: .location)
        case .area(let ref):
            try c.encode(Area(layer: ref.layer, id: ref.areaID), forKey: .area)
        }
    }
}
