import DomainKernel

/// Where a ledger line's blocks count after area layers changed: a function of the line's origin
/// and the maps now, and of nothing else.
///
/// Per area layer published at version v:
/// - the line's origin area in it, when the origin saw the same version;
/// - else the area of version v that follows the origin area (`AreaSuccession`: the same id
///   with the same geometry, else the area holding the origin area's interior point), none
///   when no area holds it;
/// - none when the line's reports lay outside every area of that layer when it was opened;
/// - for a layer new to the line, the area holding the interior point of the line's origin area
///   in its first layer by name.
/// No count and no report's position enters: the public can compute every line's class from the
/// maps (before lines went by which areas held any of a line's reports, and that told zeros and,
/// through pairs, carries).
enum LineLineage {
    /// The questions `place` needs answered for `layers` of `geography`.
    static func questions(origin: LineOrigin, layers: some Sequence<String>, geography: [String: Int]) -> [AreaSuccession] {
        var out: [AreaSuccession] = []
        for layer in layers {
            guard let version = geography[layer], version > 0 else { continue }
            if let entry = origin.entry(for: layer) {
                guard entry.version != version, let area = entry.areaID else { continue }
                out.append(AreaSuccession(from: VersionedArea(layer: layer, version: entry.version, areaID: area), layer: layer, version: version))
            } else if let reference = origin.reference {
                out.append(AreaSuccession(from: reference, layer: layer, version: version))
            }
        }
        return out
    }

    /// The line's class after `changed` layers took the versions of `geography`; the other
    /// layers keep the line's area in `current`.
    static func place(current: AreaClass, origin: LineOrigin, changed: Set<String>, geography: [String: Int],
                      answers: [AreaSuccession: String]) -> AreaClass {
        guard !changed.isEmpty else { return current }
        var areas: [String: String] = [:]
        for ref in current.areas where !changed.contains(ref.layer) { areas[ref.layer] = ref.areaID }
        for layer in changed {
            guard let version = geography[layer], version > 0 else { continue }
            if let entry = origin.entry(for: layer) {
                if entry.version == version {
                    areas[layer] = entry.areaID
                } else if let area = entry.areaID {
                    areas[layer] = answers[AreaSuccession(from: VersionedArea(layer: layer, version: entry.version, areaID: area), layer: layer, version: version)]
                }
            } else if let reference = origin.reference {
                areas[layer] = answers[AreaSuccession(from: reference, layer: layer, version: version)]
            }
        }
        return AreaClass(areas.map { AreaRef(layer: $0.key, areaID: $0.value) })
    }
}
