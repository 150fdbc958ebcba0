import Foundation
import Support

/// Any bytes: the parser answers a value or a `SyntaxError`, never a crash, a hang or a read out
/// of bounds; `check` refuses exactly what `parse` refuses; a value it read, written back as
/// JSON (by `JSONEncoder`), reads back the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The check that every reader runs first refuses exactly what the parser refuses, for the
    // same reason at the same byte.
    var parseError: JSONParser.SyntaxError?, checkError: JSONParser.SyntaxError?
    do throws(JSONParser.SyntaxError) { _ = try JSONParser.parse(bytes) } catch { parseError = error }
    do throws(JSONParser.SyntaxError) { try JSONParser.check(bytes) } catch { checkError = error }
    guard parseError == checkError else {
        fatalError("check and parse disagree: \(String(describing: parseError)) against \(String(describing: checkError))")
    }
    guard let value = try? JSONParser.parse(bytes),
          // A number beyond Double's range reads as infinity, which JSON cannot write back.
          let written = try? JSONEncoder().encode(value) else { return 0 }
    guard let again = try? JSONParser.parse(Array(written)), again == value else {
        fatalError("a parsed value does not read back the same once written")
    }
    return 0
}
