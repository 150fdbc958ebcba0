import GeoCore
import Dispatch
import Foundation
import Support
import Synchronization

/// One feature of a layer as stored: id, display name, public properties and geometry.
public struct StoredArea: Hashable, Sendable {
    public let id: String
    public let name: String?
    /// Public properties (e.g. `capacity`); never personal data.
    public let properties: [String: JSONValue]
    /// Polygon / MultiPolygon for area layers, Point for point layers.
    public let geometry: Geometry

    public init(id: String, name: String?, properties: [String: JSONValue], geometry: Geometry) {
        self.id = id
        self.name = name
        self.properties = properties
        self.geometry = geometry
    }
}

extension StoredArea {
    /// Stored properties read with the service's own JSON parser, nil when they are not one JSON
    /// object (the caller's `JSONDecoder` then says why): at 300,000 areas a `JSONDecoder` per
    /// row took a second of every start.
    public static func properties(_ text: String) -> [String: JSONValue]? {
        var text = text
        return text.withUTF8 { bytes in
            guard case .object(let members)? = try? JSONParser.parse(bytes) else { return nil }
            return members
        }
    }
}

extension StoredArea {
    /// A stored row: id, name, properties and geometry as the store wrote them.
    public typealias Row = (id: String, name: String?, properties: String, geometry: String)

    /// Reads stored rows into areas, in their order, a chunk per core: a layer's load at start is
    /// mostly this (100,000 areas: 0.4 s on one core). The first unreadable row's error is thrown.
    /// A stored row that does not read back: which layer, version and area, and why. Without
    /// them, a start stopped on an error that named none of them.
    public struct Unreadable: Error, CustomStringConvertible {
        public let layer: String
        public let version: Int
        public let areaID: String
        public let reason: String
        public var description: String { "layer \(layer) version \(version), area \(areaID): the stored row does not read back (\(reason))" }
    }

    public static func read(rows: [Row], layer: String = "?", version: Int = 0) throws -> [StoredArea] {
        let chunks = rows.count < 2_000 ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
        let results = Mutex<[Result<[StoredArea], any Error>]>(Array(repeating: .success([]), count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let range = (c * rows.count / chunks)..<((c + 1) * rows.count / chunks)
            let result = Result { () throws -> [StoredArea] in
                try rows[range].map { row in
                    do { return try read(row: row) } catch { throw Unreadable(layer: layer, version: version, areaID: row.id, reason: "\(error)") }
                }
            }
            results.withLock { $0[c] = result }
        }
        return try results.withLock { $0 }.flatMap { try $0.get() }
    }

    private static func read(row r: Row) throws -> StoredArea {
        let props = try properties(r.properties) ?? JSONDecoder().decode([String: JSONValue].self, from: Data(r.properties.utf8))
        let geometry = try StoredGeometryReader.geometry(r.geometry) ?? GeoJSONReader().geometry(from: Data(r.geometry.utf8))
        return StoredArea(id: r.id, name: r.name, properties: props, geometry: geometry)
    }
}
