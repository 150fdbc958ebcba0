extension DraftValidator {
    /// A contact phone number, E.164-ish but lenient: ASCII digits, spaces, `-`, `(` and `)`, and
    /// `+` only in front, with 7 to 20 digits. It is for a verifier to dial, not for a machine,
    /// so it is kept as written; only what cannot be a phone number is refused.
    mutating func phone(_ field: String, _ value: String?) -> String? {
        guard let number = text(field, value, max: ReportLimits.phoneCharacters, required: true) else { return nil }
        let separators: Set<Character> = [" ", "-", "(", ")"]
        let wellFormed = number.enumerated().allSatisfy { index, c in
            isDigit(c) || separators.contains(c) || (c == "+" && index == 0)
        }
        guard wellFormed else {
            fail(field, .badFormat, "may hold only digits, spaces, -, ( and ), with + only in front")
            return nil
        }
        let digits = number.filter(isDigit).count
        guard ReportLimits.phoneDigits.contains(digits) else {
            fail(field, .badFormat, "must have \(ReportLimits.phoneDigits.lowerBound) to \(ReportLimits.phoneDigits.upperBound) digits")
            return nil
        }
        return number
    }
}

/// An ASCII digit. `Character.isNumber` alone would also take `½` or Arabic-Indic digits, which
/// no dialler reads.
func isDigit(_ c: Character) -> Bool {
    c.isASCII && c.isNumber
}
