import DomainKernel
import Storage

/// The SQL edge of the domain's values: days, kinds and statuses are stored as their text.
extension SQLiteStatement {
    /// A `YYYY-MM-DD` column; nil for NULL.
    /// - Throws: `StorageError.unreadable` for text that is not a day.
    func day(_ column: Int32) throws(StorageError) -> Day? {
        guard let text = text(column) else { return nil }
        guard let day = Day(iso: text) else { throw .unreadable("\"\(text)\" is not a day") }
        return day
    }

    /// A report kind column.
    func reportKind(_ column: Int32) throws(StorageError) -> ReportKind {
        guard let text = text(column), let kind = ReportKind(rawValue: text) else { throw .unreadable("unknown report kind") }
        return kind
    }

    /// A report status column; nil for NULL.
    func reportStatus(_ column: Int32) throws(StorageError) -> ReportStatus? {
        guard let text = text(column) else { return nil }
        guard let status = ReportStatus(rawValue: text) else { throw .unreadable("unknown report status") }
        return status
    }

    /// A breakdown group column: "" (or NULL) is no group.
    func group(_ column: Int32) -> BreakdownGroup? { text(column).flatMap(BreakdownGroup.init) }
}

extension SQLiteStatement.Value {
    static func day(_ day: Day) -> Self { .text(day.iso) }
    static func day(_ day: Day?) -> Self { day.map { .text($0.iso) } ?? .null }
    static func group(_ group: BreakdownGroup?) -> Self { .text(BreakdownGroup.column(group)) }
}
