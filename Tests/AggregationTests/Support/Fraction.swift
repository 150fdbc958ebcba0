/// An exact rational number for Gaussian elimination; Swift traps on overflow, so a result is
/// either exact or the test crashes — never silently wrong.
struct Fraction: Equatable {
    let numerator: Int
    let denominator: Int

    init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(denominator != 0)
        let g = Self.gcd(abs(numerator), abs(denominator))
        let sign = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / max(g, 1)
        self.denominator = sign * denominator / max(g, 1)
    }

    static let zero = Fraction(0)
    var isZero: Bool { numerator == 0 }

    static func - (a: Fraction, b: Fraction) -> Fraction {
        Fraction(a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator)
    }
    static func * (a: Fraction, b: Fraction) -> Fraction {
        Fraction(a.numerator * b.numerator, a.denominator * b.denominator)
    }
    static func / (a: Fraction, b: Fraction) -> Fraction {
        Fraction(a.numerator * b.denominator, a.denominator * b.numerator)
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
