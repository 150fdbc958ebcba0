import Foundation
import Storage
import Support
import Testing

@Suite("Reading stored area properties")
struct StoredAreaPropertiesTests {
    @Test("the service's parser reads stored properties as JSONDecoder does")
    func agreesWithDecoder() throws {
        let texts = [
            "{}",
            #"{"capacity":412,"name":"Hall \"A\" \u00e9","population":1.5e3}"#,
            #"{"id":"a7","tags":["x",1,null,true],"nested":{"deep":{"deeper":[]}},"neg":-0.000001}"#,
            #"{"emoji":"\ud83d\ude00","slash":"a\/b","big":12345678901234567890}"#,
        ]
        for text in texts {
            let fast = try #require(StoredArea.properties(text), "not read: \(text)")
            #expect(fast == (try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))), "\(text)")
        }
    }

    @Test("what is not one JSON object is left to JSONDecoder")
    func leavesTheRest() {
        for text in ["", "[]", "1", #"{"a":1"#, #"{"a":01}"#, "null"] {
            #expect(StoredArea.properties(text) == nil, "\(text)")
        }
    }
}
