import Support

/// One page of an items request: which features, and whether pages lie before and after it.
struct FeaturePage {
    /// Ordinals of the features on this page, in id order.
    let ordinals: [Int]
    let numberMatched: Int
    /// Cursor of the next page, nil on the last one.
    let next: PageCursor?
    /// Cursor of the previous page, nil on the first one.
    let previous: PageCursor?

    init(layer: FeatureLayer, query: FeatureQuery) {
        let matched = layer.matching(query.bbox)
        numberMatched = matched.count
        let ids = layer.ids
        let precedes = ByteOrderedSearch.precedes
        var start = 0, end = matched.count
        switch query.cursor {
        case .after(let id)?:
            start = Self.partition(matched) { !precedes(id, ids[$0]) }
            end = min(matched.count, start + query.limit)
        case .before(let id)?:
            end = Self.partition(matched) { precedes(ids[$0], id) }
            start = max(0, end - query.limit)
        case nil:
            end = min(matched.count, query.limit)
        }
        ordinals = Array(matched[start..<end])
        next = end < matched.count && end > 0 ? .after(ids[matched[end - 1]]) : nil
        previous = start > 0 && start < matched.count ? .before(ids[matched[start]]) : nil
    }

    /// The count of leading elements for which `isLeading` holds (it must hold for a prefix).
    private static func partition(_ a: [Int], _ isLeading: (Int) -> Bool) -> Int {
        var lo = 0, hi = a.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isLeading(a[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
