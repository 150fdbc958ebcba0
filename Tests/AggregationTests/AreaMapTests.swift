import Foundation
import Testing
@testable import Aggregation

@Suite("area maps")
struct AreaMapTests {
    @Test("a fallback answers every id not held; count, keys and iteration are the entries held; anyValue sees both; encoding refuses")
    func fallback() throws {
        var map = AreaMap<Int>(minimumCapacity: 10, fallback: 0)
        map["a"] = 3
        map["b"] = 4
        #expect(map["a"] == 3 && map["zzz"] == 0)
        #expect(map.count == 2 && Set(map.keys) == ["a", "b"] && map.map(\.value).sorted() == [3, 4])
        #expect(map.anyValue { $0 == 0 } && map.anyValue { $0 == 4 } && !map.anyValue { $0 == 9 })
        map["a"] = nil
        #expect(map["a"] == 0 && map.count == 1)
        var same = AreaMap<Int>(fallback: 0)
        same["b"] = 4
        #expect(map == same)
        #expect(map != AreaMap<Int>(fallback: 1).with("b", 4))
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(map) }

        let plain = AreaMap<Int>().with("a", 1)
        #expect(plain["zzz"] == nil && !plain.anyValue { $0 == 0 })
        #expect(String(decoding: try JSONEncoder().encode(plain), as: UTF8.self) == #"{"a":1}"#)
    }
}

private extension AreaMap {
    func with(_ id: String, _ value: Value) -> AreaMap {
        var copy = self
        copy[id] = value
        return copy
    }
}
