import Testing
import ReportVerification

@Suite("phone numbers")
struct PhoneValidationTests {
    func phoneProblems(_ phone: String?) -> [FieldProblem] {
        var d = Fixtures.covid()
        d.phone = phone
        return problems(d)
    }

    @Test("lenient E.164-ish numbers are accepted as written",
          arguments: ["+1 (336) 555-0142", "336-555-0142", "5550142", "+39 02 1234 5678", "12345678901234567890"])
    func accepted(phone: String) throws {
        var d = Fixtures.covid()
        d.phone = "  \(phone) "
        guard case .covid(let r) = try d.validated(now: Fixtures.now, timeZone: Fixtures.utc) else {
            Issue.record("expected a covid report")
            return
        }
        #expect(r.phone == phone)
    }

    @Test("characters other than digits, spaces, -, ( ) and a leading + are refused",
          arguments: ["call me", "336.555.0142", "1+336 555 0142", "+1 336 555 0142 ext 5", "٣٣٦٥٥٥٠١٤٢"])
    func badCharacters(phone: String) {
        #expect(phoneProblems(phone) == [P("phone", .badFormat, "may hold only digits, spaces, -, ( and ), with + only in front")])
    }

    @Test("7 to 20 digits", arguments: ["555014", "+1 (2) 3-4 5", "123456789012345678901"])
    func digitCount(phone: String) {
        #expect(phoneProblems(phone) == [P("phone", .badFormat, "must have 7 to 20 digits")])
    }

    @Test("a number longer than 32 characters is refused before it is read")
    func tooLong() {
        #expect(phoneProblems("+1 (336) 555 - 0142 - 0000 - 0000") == [P("phone", .tooLong, "must be at most 32 characters")])
    }
}
