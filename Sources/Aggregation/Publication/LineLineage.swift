import DomainKernel

/// Where a ledger line's blocks count after area layers changed: decided per changed layer, and
/// only at the first publication after the change, so what decides it is the change (public)
/// and not a later verification or revocation.
///
/// - An area that still exists in its layer's new version keeps the line, whatever moved around
///   it: moving one hall's edge leaves every line of that hall where it was.
/// - An area that is gone (renamed, merged, deleted, its layer withdrawn), or a layer the line
///   has no area in yet (a new layer, a layer that now covers reports it did not), takes the
///   area where most of the line's reports now lie (ties to the smaller id, no area first).
///
/// Reports of the line that lie elsewhere stay counted in the line until a whole step of them
/// lies in one other class; then they move as a pair of blocks (see `PublicationPlanner`).
enum LineLineage {
    static func destination(of current: AreaClass, holding: [AreaClass: Int], changed: Set<String>,
                            exists: (AreaRef) -> Bool) -> AreaClass {
        guard !changed.isEmpty else { return current }
        var areas: [String: String] = [:]
        for ref in current.areas { areas[ref.layer] = ref.areaID }
        for layer in changed.sorted() {
            if let area = areas[layer], exists(AreaRef(layer: layer, areaID: area)) { continue }
            var tally: [String: Int] = [:]   // "" stands for no area of the layer
            for (areaClass, n) in holding where n > 0 { tally[areaClass.area(in: layer) ?? "", default: 0] += n }
            let best = tally.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key ?? ""
            areas[layer] = best.isEmpty ? nil : best
        }
        return AreaClass(areas.map { AreaRef(layer: $0.key, areaID: $0.value) })
    }
}
