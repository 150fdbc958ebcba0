import DomainKernel
import Foundation

/// What the validator found wrong with one feature and what it did about it.
public struct AreaRepairNote: Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let problem: String
    /// What was done.
    public let action: String

    public init(problem: String, action: String) {
        self.problem = problem
        self.action = action
    }

    public var description: String { "\(problem): \(action)" }
}

/// The result of validating one feature's geometry for an area layer.
public enum AreaValidation: Hashable, Sendable {
    /// Valid as given (orientation aside, which writers normalise silently).
    case valid([Polygon])
    /// Repaired; the notes say what was wrong and what was done.
    case repaired([Polygon], notes: [AreaRepairNote])
    /// Cannot become an area; the reason says why.
    case rejected(reason: String, notes: [AreaRepairNote])

    /// The usable polygons, nil when rejected.
    public var polygons: [Polygon]? {
        switch self {
        case .valid(let p), .repaired(let p, _): return p
        case .rejected: return nil
        }
    }

    /// The notes, empty when valid.
    public var notes: [AreaRepairNote] {
        switch self {
        case .valid: return []
        case .repaired(_, let n), .rejected(_, let n): return n
        }
    }
}

/// Validates and repairs area geometries with GEOS.
///
/// Steps: keep only Polygon / MultiPolygon input; drop repeated consecutive positions; drop
/// holes that collapse and reject shells that do; orient rings by the right-hand rule; ask
/// `GEOSisValidDetail_r`; when invalid, repair with `GEOSMakeValidWithParams_r` (structure method,
/// collapsed parts dropped) and keep the polygonal result. Each change is reported.
///
/// Not `Sendable`: it owns a GEOS context. Use one per task.
public final class AreaValidator {
    private let context: GEOSContext

    public init() {
        self.context = GEOSContext()
    }

    /// Validates one geometry. `extraNotes` are changes made earlier (e.g. a ring closed by the
    /// reader) to be reported with this feature.
    public func validate(_ geometry: Geometry?, extraNotes: [AreaRepairNote] = []) -> AreaValidation {
        var notes = extraNotes
        guard let geometry else {
            return .rejected(reason: "feature has no geometry", notes: notes)
        }
        let input: [Polygon]
        switch geometry {
        case .polygon(let p): input = [p]
        case .multiPolygon(let ps): input = ps
        default:
            return .rejected(reason: "geometry is a \(geometry.typeName); an area needs a Polygon or MultiPolygon", notes: notes)
        }
        guard !input.isEmpty else { return .rejected(reason: "MultiPolygon has no polygons", notes: notes) }

        // Repeated consecutive positions and collapsed rings.
        var cleaned: [Polygon] = []
        var repeated = 0
        for (pi, p) in input.enumerated() {
            var rings: [[Position]] = []
            for (ri, ring) in p.rings.enumerated() {
                var out: [Position] = []
                out.reserveCapacity(ring.count)
                for q in ring {
                    if let last = out.last, last.lon == q.lon, last.lat == q.lat { repeated += 1; continue }
                    out.append(q)
                }
                if out.count < 4 {
                    let name = ri == 0 ? "exterior ring" : "hole \(ri)"
                    let part = input.count > 1 ? " of polygon \(pi)" : ""
                    let distinct = max(out.count - 1, 1)
                    if ri == 0 {
                        notes.append(AreaRepairNote(problem: "\(name)\(part) has \(distinct) distinct positions", action: "polygon dropped"))
                        rings = []
                        break
                    }
                    notes.append(AreaRepairNote(problem: "\(name)\(part) has \(distinct) distinct positions", action: "hole dropped"))
                    continue
                }
                rings.append(out)
            }
            if !rings.isEmpty { cleaned.append(Polygon(trustedRings: rings)) }
        }
        if repeated > 0 {
            notes.append(AreaRepairNote(problem: "\(repeated) repeated consecutive position\(repeated == 1 ? "" : "s")", action: "removed"))
        }
        guard !cleaned.isEmpty else {
            return .rejected(reason: "no ring has the 3 distinct positions an area needs", notes: notes)
        }
        if !cleaned.allSatisfy(\.followsRightHandRule) {
            notes.append(AreaRepairNote(problem: "rings not oriented by the right-hand rule", action: "reoriented (exterior counterclockwise, holes clockwise)"))
        }
        let oriented = cleaned.map(\.rightHandRule)
        let candidate: Geometry = oriented.count == 1 ? .polygon(oriented[0]) : .multiPolygon(oriented)

        do {
            let g = try context.geometry(candidate)
            guard let invalid = try g.invalidity() else {
                return notes.isEmpty ? .valid(oriented) : .repaired(oriented, notes: notes)
            }
            let at = invalid.location.map { " at \(Self.format($0.lon)) \(Self.format($0.lat))" } ?? ""
            let fixed = try g.madeValid()
            let parts = try fixed.polygonalParts().map(\.rightHandRule)
            let areaBefore = g.area, areaAfter = fixed.area
            guard !parts.isEmpty, areaAfter > 0 else {
                return .rejected(reason: "\(invalid.reason)\(at); repair leaves no area", notes: notes)
            }
            var action = "repaired with GEOS MakeValid into \(parts.count) polygon\(parts.count == 1 ? "" : "s")"
            if areaBefore > 0, abs(areaAfter - areaBefore) > 1e-9 * areaBefore {
                action += String(format: " (area %.1f%% of the input's)", 100 * areaAfter / areaBefore)
            }
            if case .geometryCollection = try fixed.value() { action += "; non-polygonal pieces dropped" }
            notes.append(AreaRepairNote(problem: "\(invalid.reason)\(at)", action: action))
            guard try context.geometry(parts.count == 1 ? .polygon(parts[0]) : .multiPolygon(parts)).invalidity() == nil else {
                return .rejected(reason: "\(invalid.reason)\(at); GEOS could not repair it", notes: notes)
            }
            return .repaired(parts, notes: notes)
        } catch {
            return .rejected(reason: "GEOS failed: \(error.message)", notes: notes)
        }
    }

    private static func format(_ v: Double) -> String {
        String(format: "%.7f", v)
    }
}
