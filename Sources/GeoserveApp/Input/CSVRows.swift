import Foundation
import Support

/// The rows of an RFC 4180 CSV file: fields separated by commas, quoted with `"` (doubled inside)
/// when they hold commas, quotes or line breaks; lines end with LF or CRLF. An unquoted empty
/// field is nil (no value), a quoted empty one "" (as PostgreSQL's CSV format has it).
struct CSVRows: Sequence, IteratorProtocol {
    /// One row and the line it starts on (1-based).
    struct Row {
        let line: Int
        let fields: [String?]
    }

    struct Malformed: Error, CustomStringConvertible {
        let line: Int
        let description: String
    }

    /// Keeps `bytes` alive: a copy of the caller's array, or a mapped file.
    private let owner: AnyObject
    private let bytes: UnsafeRawBufferPointer
    private var at = 0
    private var line = 1
    /// How many bytes have been read, of `count`.
    var offset: Int { at }
    var count: Int { bytes.count }

    /// Set when a row could not be read; iteration stops there.
    private(set) var failure: Malformed?

    init(_ bytes: some ContiguousBytes) {
        let copy = OwnedBytes(bytes)
        self.init(copy.bytes, owner: copy)
    }

    /// The rows of a mapped file, read in place: a large import holds the file once, in the page
    /// cache, instead of as a copy.
    init(_ file: MappedFile) {
        self.init(file.bytes, owner: file)
    }

    private init(_ bytes: UnsafeRawBufferPointer, owner: AnyObject) {
        self.bytes = bytes
        self.owner = owner
        // A byte order mark from a spreadsheet program is not part of the first name.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    }

    mutating func next() -> Row? {
        guard failure == nil, at < bytes.count else { return nil }
        let start = line
        var fields: [String?] = []
        while true {
            if at < bytes.count, bytes[at] == UInt8(ascii: "\"") {
                at += 1
                var value: [UInt8] = []
                while true {
                    guard at < bytes.count else {
                        failure = Malformed(line: start, description: "a quoted field is not closed")
                        return nil
                    }
                    let b = bytes[at]
                    if b == UInt8(ascii: "\"") {
                        if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "\"") {
                            value.append(b)
                            at += 2
                            continue
                        }
                        at += 1
                        break
                    }
                    if b == 10 { line += 1 }
                    value.append(b)
                    at += 1
                }
                fields.append(String(decoding: value, as: UTF8.self))
            } else {
                let from = at
                while at < bytes.count, bytes[at] != UInt8(ascii: ","), bytes[at] != 10, bytes[at] != 13 { at += 1 }
                fields.append(at > from ? String(decoding: bytes[from..<at], as: UTF8.self) : nil)
            }
            guard at < bytes.count else { return Row(line: start, fields: fields) }
            switch bytes[at] {
            case UInt8(ascii: ","):
                at += 1
            case 13, 10:
                if bytes[at] == 13 { at += 1 }
                if at < bytes.count, bytes[at] == 10 { at += 1 }
                line += 1
                return Row(line: start, fields: fields)
            default:
                failure = Malformed(line: line, description: "text after a closing quote")
                return nil
            }
        }
    }
}

/// A copy of an array's bytes at a fixed address, freed with the last reference.
private final class OwnedBytes {
    let bytes: UnsafeRawBufferPointer

    init(_ source: some ContiguousBytes) {
        bytes = source.withUnsafeBytes { source in
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: source.count, alignment: 1)
            copy.copyMemory(from: source)
            return UnsafeRawBufferPointer(copy)
        }
    }

    deinit {
        bytes.deallocate()
    }
}
