/// Distinct pixel values of an image and how often each occurs: an open-addressing hash table
/// keyed by the 32-bit pixel, growing at half load. Entries keep their first-seen order.
struct ColorCounts {
    private var keys: [UInt32]
    private var slotEntry: [Int32]
    private var mask: Int
    /// Distinct colours in first-seen order, and their pixel counts.
    private(set) var colors: [UInt32] = []
    private(set) var counts: [Int] = []

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity { size <<= 1 }
        keys = [UInt32](repeating: 0, count: size)
        slotEntry = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    @inline(__always)
    private static func hash(_ p: UInt32) -> Int { Int(truncatingIfNeeded: (UInt64(p) &* 0x9E3779B97F4A7C15) >> 40) }

    /// Entry number of a colour, adding it with count 0 when new.
    @inline(__always)
    mutating func entry(_ p: UInt32) -> Int {
        var h = Self.hash(p) & mask
        while true {
            let e = slotEntry[h]
            if e < 0 { break }
            if keys[h] == p { return Int(e) }
            h = (h + 1) & mask
        }
        let e = colors.count
        keys[h] = p
        slotEntry[h] = Int32(e)
        colors.append(p)
        counts.append(0)
        if colors.count * 2 > keys.count { grow() }
        return e
    }

    /// Adds `n` pixels of a colour; returns its entry number.
    @inline(__always) @discardableResult
    mutating func add(_ p: UInt32, _ n: Int) -> Int {
        let e = entry(p)
        counts[e] += n
        return e
    }

    /// Entry number of a colour already present.
    @inline(__always)
    func find(_ p: UInt32) -> Int {
        var h = Self.hash(p) & mask
        while keys[h] != p || slotEntry[h] < 0 { h = (h + 1) & mask }
        return Int(slotEntry[h])
    }

    private mutating func grow() {
        let size = keys.count * 2
        keys = [UInt32](repeating: 0, count: size)
        slotEntry = [Int32](repeating: -1, count: size)
        mask = size - 1
        for (e, p) in colors.enumerated() {
            var h = Self.hash(p) & mask
            while slotEntry[h] >= 0 { h = (h + 1) & mask }
            keys[h] = p
            slotEntry[h] = Int32(e)
        }
    }
}
