import GeoCore
import Support

extension LayerImport {
    /// One area as stored: public properties and geometry as GeoJSON text.
    public struct Row: Sendable {
        public let id: String
        public let name: String?
        public let properties: String
        public let geometry: String
    }

    /// The areas as rows, each encoded when it is read: the stores write them one by one, so a
    /// layer's GeoJSON text is never held whole beside its geometry (at 300,000 areas the rows
    /// of all areas at once were 115 MB of an import's 435 MB peak).
    public struct Rows: RandomAccessCollection, Sendable {
        let areas: [StoredArea]

        public var startIndex: Int { areas.startIndex }
        public var endIndex: Int { areas.endIndex }

        public subscript(i: Int) -> Row {
            let a = areas[i]
            let writer = GeoJSONWriter(precision: nil)
            return Row(id: a.id, name: a.name, properties: writer.string(JSONValue.object(a.properties)), geometry: writer.string(a.geometry))
        }
    }

    /// The rows to store, checked before any transaction.
    /// - Throws: `StorageError.invalidImport` for an id that occurs twice.
    public func rows() throws(StorageError) -> Rows {
        var seen = Set<String>(minimumCapacity: areas.count)
        for a in areas where !seen.insert(a.id).inserted {
            throw .invalidImport("area id \"\(a.id)\" occurs twice in layer \"\(layer)\"")
        }
        return Rows(areas: areas)
    }
}
