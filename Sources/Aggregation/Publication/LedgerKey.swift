import DomainKernel

/// One line of the publication ledger: the verified reports of one kind in one area class.
public struct LedgerKey: Hashable, Sendable, Comparable {
    public let kind: ReportKind
    public let areaClass: AreaClass

    public init(kind: ReportKind, areaClass: AreaClass) {
        self.kind = kind
        self.areaClass = areaClass
    }

    public static func < (lhs: LedgerKey, rhs: LedgerKey) -> Bool {
        (lhs.kind.rawValue, lhs.areaClass) < (rhs.kind.rawValue, rhs.areaClass)
    }
}
