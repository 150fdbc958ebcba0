import GeoserveApp
extension Array where Element == Double {
    /// The middle value (the mean of the two middle ones for an even count); 0 when empty.
    var median: Double {
        let s = sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
