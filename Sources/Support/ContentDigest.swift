/// A fast 128-bit digest of a stream of 64-bit words: two independent multiply-rotate lanes.
///
/// Names derived files after the content they were built from, and checks that such a file
/// reads back as written. Not cryptographic: it guards against change and corruption, not
/// against someone who can already write the files it checks. Over 8-byte words it runs at
/// memory speed (a 300,000-area layer's coordinates, 38 MB, in about 15 ms).
public struct ContentDigest: Sendable, Equatable {
    private(set) var a: UInt64 = 0x243F_6A88_85A3_08D3
    private(set) var b: UInt64 = 0x1319_8A2E_0370_7344
    private var count: UInt64 = 0

    public init() {}

    @inline(__always)
    public mutating func add(_ word: UInt64) {
        a = ((a ^ word) &* 0x9E37_79B9_7F4A_7C15).rotatedLeft(by: 31)
        b = ((b &+ word) &* 0xC2B2_AE3D_27D4_EB4F).rotatedLeft(by: 27) ^ a
        count &+= 1
    }

    @inline(__always)
    public mutating func add(_ value: Double) { add(value.bitPattern) }

    @inline(__always)
    public mutating func add(_ value: Int) { add(UInt64(bitPattern: Int64(value))) }

    /// Adds the bytes of a string with its length, so that "ab","c" and "a","bc" differ.
    public mutating func add(_ text: String) {
        var word: UInt64 = 0, shift: UInt64 = 0
        var length = 0
        for byte in text.utf8 {
            word |= UInt64(byte) << shift
            shift += 8
            length += 1
            if shift == 64 { add(word); word = 0; shift = 0 }
        }
        add(word)
        add(length)
    }

    /// Adds raw memory, a word at a time (its length must be a multiple of 8).
    public mutating func add(words bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count % 8 == 0, "whole words only")
        for k in stride(from: 0, to: bytes.count, by: 8) { add(bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self)) }
    }

    /// The two lanes, finished with the word count.
    public var value: (UInt64, UInt64) {
        var x = a ^ count, y = b ^ (count &* 0x9E37_79B9_7F4A_7C15)
        x = (x ^ (x >> 33)) &* 0xFF51_AFD7_ED55_8CCD; x ^= x >> 33
        y = (y ^ (y >> 29)) &* 0xC4CE_B9FE_1A85_EC53; y ^= y >> 32
        return (x, y ^ x)
    }

    /// The value as 32 hexadecimal digits.
    public var hex: String {
        let (x, y) = value
        func digits(_ v: UInt64) -> String { let s = String(v, radix: 16); return String(repeating: "0", count: 16 - s.count) + s }
        return digits(x) + digits(y)
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(by k: UInt64) -> UInt64 { (self << k) | (self >> (64 - k)) }
}
