import GeoCore

extension LayerImport {
    /// One area as stored: public properties and geometry as GeoJSON text.
    public struct Row: Sendable {
        public let id: String
        public let name: String?
        public let properties: String
        public let geometry: String
    }

    /// The rows to store, encoded before any transaction so that locks are held briefly.
    /// - Throws: `StorageError.invalidImport` for an id that occurs twice.
    public func rows() throws(StorageError) -> [Row] {
        var seen = Set<String>()
        for a in areas where !seen.insert(a.id).inserted {
            throw .invalidImport("area id \"\(a.id)\" occurs twice in layer \"\(layer)\"")
        }
        let writer = GeoJSONWriter(precision: nil)
        return areas.map { a in Row(id: a.id, name: a.name, properties: writer.string(JSONValue.object(a.properties)), geometry: writer.string(a.geometry)) }
    }
}
