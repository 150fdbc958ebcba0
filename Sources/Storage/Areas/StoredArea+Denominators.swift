import Support

extension StoredArea {
    /// Each area's denominator for rates per 1,000: its positive `capacity`, else its
    /// positive `population` property; areas with neither have no rate.
    public static func denominators(_ areas: [StoredArea]) -> [String: Double] {
        var out: [String: Double] = [:]
        for area in areas {
            for key in ["capacity", "population"] {
                if case .number(let n)? = area.properties[key], n > 0 { out[area.id] = n; break }
            }
        }
        return out
    }
}
