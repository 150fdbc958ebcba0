import DomainKernel

/// Where a ledger line's blocks count after area layers changed: decided per changed layer, and
/// only at the first publication after the change, so what decides it is the change (public)
/// and not a later verification or revocation.
///
/// Nothing here compares counts: a line's reports include its unreleased carry, and a choice
/// made by which part holds more of them tells the public something about the carry (a hall cut
/// in halves that went with the larger half told that the carry was at least 4). What decides is
/// which areas exist and which hold any of the line's reports:
/// - An area that still exists in its layer's new version keeps the line while it holds any of
///   the line's reports, whatever moved around it: moving one hall's edge leaves its lines there.
/// - Otherwise — the area is gone (renamed, merged, deleted, its layer withdrawn), holds none of
///   the line's reports any more, or the layer is new to the line — the line takes the smallest
///   area id of that layer that holds any of its reports (none when they all lie outside it).
///
/// Reports of the line that lie elsewhere stay counted in the line until a step of them lies in
/// one other class; then they may move as a pair of blocks (see `PublicationPlanner`).
enum LineLineage {
    static func destination(of current: AreaClass, holding: [AreaClass: Int], changed: Set<String>,
                            exists: (AreaRef) -> Bool) -> AreaClass {
        guard !changed.isEmpty else { return current }
        var areas: [String: String] = [:]
        for ref in current.areas { areas[ref.layer] = ref.areaID }
        for layer in changed.sorted() {
            let held = Set(holding.compactMap { $0.value > 0 ? $0.key.area(in: layer) ?? "" : nil })   // "": outside the layer
            if let area = areas[layer], exists(AreaRef(layer: layer, areaID: area)), held.isEmpty || held.contains(area) { continue }
            if held.isEmpty {
                areas[layer] = nil
                continue
            }
            areas[layer] = held.filter { !$0.isEmpty }.min()
        }
        return AreaClass(areas.map { AreaRef(layer: $0.key, areaID: $0.value) })
    }
}
