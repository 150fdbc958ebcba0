import CLibPQ
import DomainKernel
import Storage

/// A query's result (`PGresult*`), cleared exactly once in `deinit`. Values arrive in
/// PostgreSQL's text format.
final class PostgresResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
        self.result = result
    }

    deinit {
        PQclear(result)
    }

    var count: Int { Int(PQntuples(result)) }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    func text(_ row: Int, _ column: Int) -> String? {
        isNull(row, column) ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
    }

    /// A column that the schema declares `NOT NULL`.
    func string(_ row: Int, _ column: Int) -> String { text(row, column) ?? "" }

    func int(_ row: Int, _ column: Int) -> Int64 { text(row, column).flatMap { Int64($0) } ?? 0 }

    func double(_ row: Int, _ column: Int) -> Double? { text(row, column).flatMap { Double($0) } }

    /// The first column of the first row as an integer, or nil without rows.
    var firstInt: Int64? { count > 0 && !isNull(0, 0) ? int(0, 0) : nil }

    /// The first column of the first row as text, or nil without rows.
    var firstText: String? { count > 0 ? text(0, 0) : nil }

    func errorField(_ code: Int32) -> String? {
        PQresultErrorField(result, code).map { String(cString: $0) }
    }

    /// A `YYYY-MM-DD` column; nil for NULL.
    func day(_ row: Int, _ column: Int) throws(StorageError) -> Day? {
        guard let text = text(row, column) else { return nil }
        guard let day = Day(iso: text) else { throw .unreadable("\"\(text)\" is not a day") }
        return day
    }

    func reportKind(_ row: Int, _ column: Int) throws(StorageError) -> ReportKind {
        guard let text = text(row, column), let kind = ReportKind(rawValue: text) else { throw .unreadable("unknown report kind") }
        return kind
    }

    func reportStatus(_ row: Int, _ column: Int) throws(StorageError) -> ReportStatus? {
        guard let text = text(row, column) else { return nil }
        guard let status = ReportStatus(rawValue: text) else { throw .unreadable("unknown report status") }
        return status
    }

    /// A breakdown group column: "" (or NULL) is no group.
    func group(_ row: Int, _ column: Int) -> BreakdownGroup? { text(row, column).flatMap(BreakdownGroup.init) }
}

extension PostgresValue {
    static func day(_ day: Day) -> Self { .text(day.iso) }
    static func day(_ day: Day?) -> Self { day.map { .text($0.iso) } ?? .null }
    static func group(_ group: BreakdownGroup?) -> Self { .text(BreakdownGroup.column(group)) }
    static func optional(_ text: String?) -> Self { text.map { .text($0) } ?? .null }
    static func optional(_ number: Double?) -> Self { number.map { .double($0) } ?? .null }
}
