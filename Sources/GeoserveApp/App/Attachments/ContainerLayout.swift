/// One step of walking a file's structure: what a header just read says comes next.
enum LayoutStep: Equatable {
    /// The header is longer: this many bytes in all (counted from the header's start).
    case header(Int)
    /// The header is complete: skip this many bytes to the next header.
    case skip(Int)
    /// Everything from here to the end belongs to the last element (a size of "to the end").
    case toEnd
    /// Not the format it claims to be, with why.
    case broken(String)
}

/// A format whose files are a sequence of headers, each saying how many bytes follow before the
/// next: PNG chunks, ISO BMFF boxes, RIFF chunks, EBML elements.
protocol ContainerLayout {
    /// Bytes of the first header.
    var firstHeader: Int { get }
    /// Bytes of every later header, before `step` may ask for more.
    var nextHeader: Int { get }
    /// Reads a header (`header.count` bytes, as last asked for).
    mutating func step(_ header: [UInt8]) -> LayoutStep
    /// Whether a file ending at a header boundary (or inside a to-the-end element) of `total`
    /// bytes is complete.
    func isComplete(total: Int) -> Bool
}

extension Array where Element == UInt8 {
    func bigEndian(_ at: Int, _ count: Int) -> Int {
        self[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    func littleEndian(_ at: Int, _ count: Int) -> Int {
        self[at..<(at + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    /// Four bytes of a type code (PNG chunk, box, RIFF chunk) are printable ASCII.
    func isTypeCode(_ at: Int) -> Bool {
        self[at..<(at + 4)].allSatisfy { (0x20...0x7E).contains($0) }
    }
}

/// PNG: the signature, then chunks (length, type, data, CRC) from IHDR to IEND.
struct PNGLayout: ContainerLayout {
    private var signed = false, sawHeader = false, sawEnd = false
    var firstHeader: Int { 8 }
    var nextHeader: Int { 8 }

    mutating func step(_ h: [UInt8]) -> LayoutStep {
        if !signed {
            signed = true
            return .skip(0)
        }
        if sawEnd { return .broken("bytes after the IEND chunk") }
        let length = h.bigEndian(0, 4)
        guard h[4..<8].allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }), length < 1 << 31 else {
            return .broken("a chunk that is not a PNG chunk")
        }
        let type = String(decoding: h[4..<8], as: UTF8.self)
        if !sawHeader {
            guard type == "IHDR", length == 13 else { return .broken("no IHDR chunk first") }
            sawHeader = true
        }
        if type == "IEND" { sawEnd = true }
        return .skip(length + 4)
    }

    func isComplete(total: Int) -> Bool { sawEnd }
}

/// ISO base media (MP4, QuickTime, HEIC): boxes of a 32-bit size (1: a 64-bit size follows; 0: to
/// the end) and a four-character type.
struct BoxLayout: ContainerLayout {
    private var boxes = 0
    var firstHeader: Int { 8 }
    var nextHeader: Int { 8 }

    mutating func step(_ h: [UInt8]) -> LayoutStep {
        guard h.isTypeCode(4) else { return .broken("a box with an unprintable type") }
        let size = h.bigEndian(0, 4)
        if size == 1 {
            if h.count < 16 { return .header(16) }
            let large = h.bigEndian(8, 8)
            guard large >= 16 else { return .broken("a box smaller than its header") }
            boxes += 1
            return .skip(large - 16)
        }
        boxes += 1
        if size == 0 { return .toEnd }
        guard size >= 8 else { return .broken("a box smaller than its header") }
        return .skip(size - 8)
    }

    func isComplete(total: Int) -> Bool { boxes > 0 }
}

/// RIFF (WebP): "RIFF", the size of what follows, "WEBP", then chunks padded to even sizes.
struct RIFFLayout: ContainerLayout {
    private var declared: Int?
    var firstHeader: Int { 12 }
    var nextHeader: Int { 8 }

    mutating func step(_ h: [UInt8]) -> LayoutStep {
        if declared == nil {
            declared = h.littleEndian(4, 4) + 8
            return .skip(0)
        }
        guard h.isTypeCode(0) else { return .broken("a chunk with an unprintable type") }
        let size = h.littleEndian(4, 4)
        return .skip(size + size % 2)
    }

    func isComplete(total: Int) -> Bool { declared == total }
}

/// EBML (WebM): elements of a variable-length id and size, the EBML header first, then the
/// Segment (whose size may be "unknown": to the end).
struct EBMLLayout: ContainerLayout {
    private var elements = 0, sawSegment = false
    var firstHeader: Int { 1 }
    var nextHeader: Int { 1 }

    /// Bytes of a variable-length integer starting with `first`: one more per leading zero bit.
    private static func width(_ first: UInt8, max: Int) -> Int? {
        guard first != 0 else { return nil }
        let w = first.leadingZeroBitCount + 1
        return w <= max ? w : nil
    }

    mutating func step(_ h: [UInt8]) -> LayoutStep {
        guard let idWidth = Self.width(h[0], max: 4) else { return .broken("an element with a malformed id") }
        if h.count < idWidth + 1 { return .header(idWidth + 1) }
        guard let sizeWidth = Self.width(h[idWidth], max: 8) else { return .broken("an element with a malformed size") }
        if h.count < idWidth + sizeWidth { return .header(idWidth + sizeWidth) }
        let id = h.bigEndian(0, idWidth)
        var size = Int(h[idWidth] & (0xFF >> sizeWidth))
        for b in h[(idWidth + 1)..<(idWidth + sizeWidth)] { size = size << 8 | Int(b) }
        let unknown = size == (1 << (7 * sizeWidth)) - 1
        defer { elements += 1 }
        switch elements {
        case 0: guard id == 0x1A45DFA3, !unknown else { return .broken("no EBML header first") }
        case 1: guard id == 0x18538067 else { return .broken("no Segment after the EBML header") }
        default: break
        }
        if id == 0x18538067 { sawSegment = true }
        return unknown ? .toEnd : .skip(size)
    }

    func isComplete(total: Int) -> Bool { sawSegment }
}
