import Foundation

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

    /// Reads and validates.
    /// - Parameter progress: called with (done, total) every few hundred features.
    /// - Throws: `GeoJSONError` when the document itself is not readable GeoJSON.
    public func read(_ data: Data, progress: ((Int, Int) -> Void)? = nil) throws(GeoJSONError) -> LayerReadResult {
        var reader = GeoJSONReader()
        reader.closeUnclosedRings = true
        let (collection, readingNotes) = try reader.featureCollectionWithNotes(from: data)
        var notesByFeature: [Int: [AreaRepairNote]] = [:]
        for n in readingNotes {
            if let i = Self.featureIndex(inPath: n.path) {
                let where_ = n.path.replacingOccurrences(of: "$.features[\(i)].geometry.", with: "")
                notesByFeature[i, default: []].append(AreaRepairNote(problem: "\(where_): ring not closed", action: "closed by repeating its first position"))
            }
        }
        let kind = self.kind ?? Self.detectKind(collection)
        let validator = AreaValidator()
        var accepted: [LayerFeature] = []
        var reports: [FeatureReport] = []
        var seen: [String: Int] = [:]
        var layerVertices = 0
        let total = collection.features.count
        for (i, f) in collection.features.enumerated() {
            if let progress, i % 250 == 0 { progress(i, total) }
            let id = featureID(f)
            guard let id, !id.isEmpty else {
                let hint = idField.map { "property \"\($0)\" is missing or empty" } ?? "feature has neither an id member nor an id property (use --id-field to name one)"
                reports.append(FeatureReport(index: i, id: nil, outcome: .rejected(hint, [])))
                continue
            }
            if let first = seen[id] {
                reports.append(FeatureReport(index: i, id: id, outcome: .rejected("id \"\(id)\" already used by feature \(first)", [])))
                continue
            }
            // Before validation, which would otherwise spend its time on a geometry to be refused.
            if let tooLarge = limits.problem(f.geometry, properties: f.properties, featuresSoFar: accepted.count, layerVerticesSoFar: layerVertices) {
                reports.append(FeatureReport(index: i, id: id, outcome: .rejected(tooLarge, [])))
                continue
            }
            let geometry: Geometry
            let outcome: FeatureReport.Outcome
            switch kind {
            case .points:
                guard case .point? = f.geometry else {
                    reports.append(FeatureReport(index: i, id: id, outcome: .rejected("geometry is \(f.geometry?.typeName ?? "null"); a point layer needs a Point", [])))
                    continue
                }
                geometry = f.geometry!
                outcome = .valid
            case .areas:
                switch validator.validate(f.geometry, extraNotes: notesByFeature[i] ?? []) {
                case .valid(let ps):
                    geometry = ps.count == 1 ? .polygon(ps[0]) : .multiPolygon(ps)
                    outcome = .valid
                case .repaired(let ps, let notes):
                    geometry = ps.count == 1 ? .polygon(ps[0]) : .multiPolygon(ps)
                    outcome = .repaired(notes)
                case .rejected(let reason, let notes):
                    reports.append(FeatureReport(index: i, id: id, outcome: .rejected(reason, notes)))
                    continue
                }
            }
            seen[id] = i
            layerVertices += geometry.vertexCount
            var props = f.properties ?? [:]
            let name = (nameField.flatMap { props[$0]?.stringValue }) ?? props["name"]?.stringValue
            if let idField { props.removeValue(forKey: idField) }
            accepted.append(LayerFeature(id: id, name: name, properties: props, geometry: geometry))
            reports.append(FeatureReport(index: i, id: id, outcome: outcome))
        }
        progress?(total, total)
        return LayerReadResult(kind: kind, features: accepted, report: LayerValidationReport(features: reports))
    }

    private func featureID(_ f: Feature) -> String? {
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
