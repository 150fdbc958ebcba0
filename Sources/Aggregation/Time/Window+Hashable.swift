import DomainKernel

/// Hashing and equality by case. The defaults for a `String`-backed enum hash and compare the
/// raw string; released numbers are dictionaries keyed by window, built by the hundred thousand
/// for a large layer, so a one-word hash of the case is worth having.
extension Window {
    private var ordinal: Int {
        switch self {
        case .d7: 0
        case .d14: 1
        case .d28: 2
        case .all: 3
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    public static func == (lhs: Window, rhs: Window) -> Bool { lhs.ordinal == rhs.ordinal }
}
