import Foundation
import Support

/// A feature accepted into a layer: its id, display name, public properties and valid geometry.
public struct LayerFeature: Hashable, Sendable {
    public let id: String
    public let name: String?
    public let properties: [String: JSONValue]
    /// Polygon / MultiPolygon (area layers) or Point (point layers), valid and normalised.
    public let geometry: Geometry
}

/// What a layer file holds.
public enum LayerGeometryKind: String, Hashable, Sendable {
    case areas, points
}

/// A whole layer read from GeoJSON: accepted features plus the per-feature report.
public struct LayerReadResult: Sendable {
    public let kind: LayerGeometryKind
    public let features: [LayerFeature]
    public let report: LayerValidationReport
}

/// Reads a GeoJSON FeatureCollection as an area or point layer: picks each feature's id and name,
/// validates and repairs geometry, and reports feature by feature.
public struct LayerReader: Sendable {
    /// Property holding the area id; nil uses the feature's `id` member, or else an `id` property.
    public var idField: String?
    /// Property holding the display name; nil tries `name`.
    public var nameField: String?
    /// Force a kind; nil detects it (points when every geometry is a Point).
    public var kind: LayerGeometryKind?
    /// Sizes beyond which a feature is rejected.
    public var limits: AreaLimits

    public init(idField: String? = nil, nameField: String? = nil, kind: LayerGeometryKind? = nil, limits: AreaLimits = AreaLimits()) {
        self.idField = idField
        self.nameField = nameField
        self.kind = kind
        self.limits = limits
    }

    /// Reads and validates, a feature at a time (`GeoJSONFeatureStream`) where the document
    /// allows, else decoded whole; both give the same result and the same errors.
    /// - Parameters:
    ///   - progress: called with (done, total) every few hundred features.
    ///   - pagesRead: called when the document has been scanned and then every
    ///     `pagesReadInterval` features read a feature at a time, so that a caller that mapped
    ///     the file can hand the pages read so far back to the kernel (`data` must stay readable).
    /// - Throws: `GeoJSONError` when the document itself is not readable GeoJSON.
    public func read(_ data: Data, progress: ((Int, Int) -> Void)? = nil, pagesRead: (() -> Void)? = nil) throws(GeoJSONError) -> LayerReadResult {
        var reader = GeoJSONReader()
        reader.closeUnclosedRings = true
        if let streamed = try readStreamed(data, reader: reader, progress: progress, pagesRead: pagesRead) { return streamed }
        return try readWhole(data, reader: reader, progress: progress)
    }

    /// Features between two `pagesRead` calls: at about 290 bytes a feature, 1 MB of a file.
    static let pagesReadInterval = 4_096

    /// The document read a feature at a time; nil when its layout is not one the stream reads.
    func readStreamed(_ data: Data, reader: GeoJSONReader, progress: ((Int, Int) -> Void)? = nil,
                      pagesRead: (() -> Void)? = nil) throws(GeoJSONError) -> LayerReadResult? {
        guard let stream = try GeoJSONFeatureStream(data: data, reader: reader) else { return nil }
        pagesRead?()
        if let kind { return try read(stream, kind: kind, progress: progress, pagesRead: pagesRead)! }
        // A layer is of points when every geometry is a Point: read as the first geometry
        // says, and again as areas in the rare file whose first geometry is a point and a later
        // one is not.
        var first: LayerGeometryKind = .areas
        for i in 0..<stream.count {
            guard let g = try stream.feature(i).feature.geometry else { continue }
            if case .point = g { first = .points }
            break
        }
        if let result = try read(stream, kind: first, progress: progress, pagesRead: pagesRead, stopUnlessAllPoints: first == .points) { return result }
        return try read(stream, kind: .areas, progress: progress, pagesRead: pagesRead)!
    }

    /// The features of a stream as a layer of `kind`; nil when `stopUnlessAllPoints` and a
    /// geometry other than a point was met.
    private func read(_ stream: GeoJSONFeatureStream, kind: LayerGeometryKind, progress: ((Int, Int) -> Void)?,
                      pagesRead: (() -> Void)?, stopUnlessAllPoints: Bool = false) throws(GeoJSONError) -> LayerReadResult? {
        let total = stream.count
        var collector = Collector(reader: self, kind: kind, expected: total)
        for i in 0..<total {
            if let progress, i % 250 == 0 { progress(i, total) }
            if let pagesRead, i > 0, i % Self.pagesReadInterval == 0 { pagesRead() }
            let (feature, notes) = try stream.feature(i)
            if stopUnlessAllPoints, let g = feature.geometry {
                guard case .point = g else { return nil }
            }
            collector.add(feature, index: i, notes: notes.map { Self.repairNote($0, feature: i) })
        }
        progress?(total, total)
        return collector.result
    }

    /// The document decoded whole: for what the stream does not read, and the source of truth
    /// the stream is tested against.
    func readWhole(_ data: Data, reader: GeoJSONReader, progress: ((Int, Int) -> Void)? = nil) throws(GeoJSONError) -> LayerReadResult {
        let (collection, readingNotes) = try reader.featureCollectionWithNotes(from: data)
        var notesByFeature: [Int: [AreaRepairNote]] = [:]
        for n in readingNotes {
            if let i = Self.featureIndex(inPath: n.path) { notesByFeature[i, default: []].append(Self.repairNote(n, feature: i)) }
        }
        var collector = Collector(reader: self, kind: self.kind ?? Self.detectKind(collection), expected: collection.features.count)
        let total = collection.features.count
        for (i, f) in collection.features.enumerated() {
            if let progress, i % 250 == 0 { progress(i, total) }
            collector.add(f, index: i, notes: notesByFeature[i] ?? [])
        }
        progress?(total, total)
        return collector.result
    }

    /// A ring the reader closed, as the repair report words it.
    private static func repairNote(_ n: GeoJSONReadingNote, feature i: Int) -> AreaRepairNote {
        let where_ = n.path.replacingOccurrences(of: "$.features[\(i)].geometry.", with: "")
        return AreaRepairNote(problem: "\(where_): ring not closed", action: "closed by repeating its first position")
    }

    /// Checks features one by one into the accepted list and the report.
    private struct Collector {
        let reader: LayerReader
        let kind: LayerGeometryKind
        let validator = AreaValidator()
        var accepted: [LayerFeature] = []
        var reports: [FeatureReport] = []
        var seen: [String: Int] = [:]
        var layerVertices = 0

        /// - Parameter expected: the features to come, so that the lists are allocated once at
        ///   their size instead of doubling (at 300,000 features, a capacity of 524,288 each).
        init(reader: LayerReader, kind: LayerGeometryKind, expected: Int = 0) {
            self.reader = reader
            self.kind = kind
            accepted.reserveCapacity(expected)
            reports.reserveCapacity(expected)
            seen.reserveCapacity(expected)
        }

        var result: LayerReadResult { LayerReadResult(kind: kind, features: accepted, report: LayerValidationReport(features: reports)) }

        mutating func add(_ f: Feature, index i: Int, notes readingNotes: [AreaRepairNote]) {
            let id = reader.featureID(f)
            guard let id, !id.isEmpty else {
                let hint = reader.idField.map { "property \"\($0)\" is missing or empty" } ?? "feature has neither an id member nor an id property (use --id-field to name one)"
                reports.append(FeatureReport(index: i, id: nil, outcome: .rejected(hint, [])))
                return
            }
            if let first = seen[id] {
                reports.append(FeatureReport(index: i, id: id, outcome: .rejected("id \"\(id)\" already used by feature \(first)", [])))
                return
            }
            // Before validation, which would otherwise spend its time on a geometry to be refused.
            if let tooLarge = reader.limits.problem(f.geometry, properties: f.properties, featuresSoFar: accepted.count, layerVerticesSoFar: layerVertices) {
                reports.append(FeatureReport(index: i, id: id, outcome: .rejected(tooLarge, [])))
                return
            }
            let geometry: Geometry
            let outcome: FeatureReport.Outcome
            switch kind {
            case .points:
                guard case .point? = f.geometry else {
                    reports.append(FeatureReport(index: i, id: id, outcome: .rejected("geometry is \(f.geometry?.typeName ?? "null"); a point layer needs a Point", [])))
                    return
                }
                geometry = f.geometry!
                outcome = .valid
            case .areas:
                switch validator.validate(f.geometry, extraNotes: readingNotes) {
                case .valid(let ps):
                    geometry = ps.count == 1 ? .polygon(ps[0]) : .multiPolygon(ps)
                    outcome = .valid
                case .repaired(let ps, let notes):
                    geometry = ps.count == 1 ? .polygon(ps[0]) : .multiPolygon(ps)
                    outcome = .repaired(notes)
                case .rejected(let reason, let notes):
                    reports.append(FeatureReport(index: i, id: id, outcome: .rejected(reason, notes)))
                    return
                }
            }
            seen[id] = i
            layerVertices += geometry.vertexCount
            let props = f.properties ?? [:]
            let name = (reader.nameField.flatMap { props[$0]?.stringValue }) ?? props["name"]?.stringValue
            accepted.append(LayerFeature(id: id, name: name, properties: LayerReader.kept(props, without: reader.idField), geometry: geometry))
            reports.append(FeatureReport(index: i, id: id, outcome: outcome))
        }
    }

    /// The properties but the id field, in a dictionary of their own size: removing a member
    /// from the decoded dictionary copied it at the decoded capacity (232 bytes for the name
    /// left of `{"id", "name"}`, 152 at its size; 300,000 features hold all of theirs at once).
    private static func kept(_ props: [String: JSONValue], without idField: String?) -> [String: JSONValue] {
        guard let idField, props[idField] != nil else { return props }
        guard props.count > 1 else { return [:] }
        var kept = [String: JSONValue](minimumCapacity: props.count - 1)
        for (key, value) in props where key != idField { kept[key] = value }
        return kept
    }

    fileprivate func featureID(_ f: Feature) -> String? {
        if let idField { return f.properties?[idField]?.stringValue }
        return f.id?.description ?? f.properties?["id"]?.stringValue
    }

    static func detectKind(_ c: FeatureCollection) -> LayerGeometryKind {
        let geometries = c.features.compactMap(\.geometry)
        if !geometries.isEmpty, geometries.allSatisfy({ if case .point = $0 { true } else { false } }) { return .points }
        return .areas
    }

    static func featureIndex(inPath path: String) -> Int? {
        guard path.hasPrefix("$.features["), let close = path.firstIndex(of: "]") else { return nil }
        return Int(path[path.index(path.startIndex, offsetBy: 11)..<close])
    }
}
