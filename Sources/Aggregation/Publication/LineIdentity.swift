import DomainKernel

/// A class on the maps of some moment: the areas of `areaClass` in the layers' versions of
/// `geography`. What a line's identity is computed from (`PublicationPlanner.identityQuestions`).
public struct ClassOnMaps: Hashable, Sendable {
    public let areaClass: AreaClass
    public let geography: [String: Int]

    public init(areaClass: AreaClass, geography: [String: Int]) {
        self.areaClass = areaClass
        self.geography = geography
    }
}

/// Which line new reports of a class join: the one whose identity is the class's on the maps
/// now, opened if none has it. An identity names, per area layer, the geometry of the class's
/// area there (a digest of the stored geometry; none: outside every area), so it is a function of
/// the maps alone. Before, new reports joined the oldest line of their class, and a line is only
/// opened when a report arrives: after a merge and its undo, the hall that got the merged
/// period's reports told which line was older, and so that a hall showing 0 already had a
/// report.
///
/// An area whose geometry a new version keeps — unchanged, or renamed — keeps its lines taking
/// its reports; a rollback brings back the old geometries and their lines; an area whose
/// geometry changes (a moved edge, a merge, a split) opens new lines, and the old lines keep
/// their carries, still counted where their origins lie.
public enum LineIdentity {
    /// The identity of `areaClass` on the maps of `geography`, `digest` giving the digest of an
    /// area's geometry (layer, area; nil when the store has no such area).
    public static func key(of areaClass: AreaClass, geography: [String: Int], digest: (String, String) -> String?) -> String {
        let areas = areaClass.areas
        return geography.filter { $0.value > 0 }.keys.sorted().map { layer -> String in
            guard let area = areas.first(where: { $0.layer == layer })?.areaID else { return "\(layer)\(AreaClass.fieldSeparator)" }
            // An area the store does not hold (cannot happen for a class a report lies in) is
            // named by its id and version: still the maps' alone.
            let geometry = digest(layer, area) ?? "\(area)@\(geography[layer]!)"
            return "\(layer)\(AreaClass.fieldSeparator)\(geometry)"
        }.joined(separator: String(AreaClass.pairSeparator))
    }
}
