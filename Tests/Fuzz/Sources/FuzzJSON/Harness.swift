import Foundation
import Support

/// Any bytes: the parser answers a value or a `SyntaxError`, never a crash, a hang or a read out
/// of bounds; a value it read, written back as JSON (by `JSONEncoder`), reads back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONParser.parse(bytes),
          // A number beyond Double's range reads as infinity, which JSON cannot write back.
          let written = try? JSONEncoder().encode(value) else { return 0 }
    guard let again = try? JSONParser.parse(Array(written)), again == value else {
        fatalError("a parsed value does not read back the same once written")
    }
    return 0
}
