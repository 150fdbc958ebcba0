/// A store's rows as they are, for moving an installation between backends
/// (`geoserve migrate-store`). Both backends keep the same tables and columns at the same schema
/// version, so a copy is table by table, row by row, with nothing recomputed.
///
/// Concurrency contract: none beyond each call's own statement. A copy is made with the service
/// stopped: pages read while another process writes may skip or repeat rows.
public protocol StoreCopy: Sendable {
    /// Whether the store holds no layer, account, report or audit entry (only its schema).
    func isEmpty() async throws -> Bool

    /// The rows of a table in the order of its key, `limit` rows after the first `offset`, each
    /// with the table's `columns` in order.
    func rows(of table: StoreTable, offset: Int, limit: Int) async throws -> [[StoredValue]]

    /// Inserts rows as they are, in one transaction: no audit entry, no counter change, since a
    /// copy records nothing new.
    func insert(_ rows: [[StoredValue]], into table: StoreTable) async throws
}

/// One column value as a copy carries it.
public enum StoredValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// A table a copy carries.
public struct StoreTable: Sendable, Hashable {
    public let name: String
    public let columns: [String]
    /// The primary key's columns: the order pages are read in.
    public let key: [String]
    /// Columns that PostgreSQL keeps as `boolean` and SQLite as 0 or 1.
    public let booleans: Set<String>

    public init(_ name: String, columns: [String], key: [String], booleans: Set<String> = []) {
        self.name = name
        self.columns = columns
        self.key = key
        self.booleans = booleans
    }

    /// Every table, parents before the tables that refer to them. `meta` (the data version) is
    /// last: a target's migration created its row, so it is replaced rather than inserted.
    public static let all: [StoreTable] = [
        StoreTable("layers", columns: ["name", "kind", "published_version", "created_at"], key: ["name"]),
        StoreTable("layer_versions", columns: ["layer", "version", "created_at", "source", "feature_count", "repaired_count", "rejected_count"],
                   key: ["layer", "version"]),
        StoreTable("areas", columns: ["layer", "version", "area_id", "name", "properties", "geometry"], key: ["layer", "version", "area_id"]),
        StoreTable("accounts", columns: ["id", "email", "role", "password_hash", "disabled", "created_at"], key: ["id"], booleans: ["disabled"]),
        StoreTable("tokens", columns: ["token_hash", "account_id", "created_at", "expires_at", "revoked_at"], key: ["token_hash"]),
        StoreTable("reports", columns: ["id", "kind", "status", "version", "reporter_id", "receipt_hash", "idempotency_scope", "idempotency_key",
                                        "idempotency_request", "occurred_on", "submitted_at", "updated_at", "lon", "lat", "payload", "verified_on", "group_key",
                                        "ledger_line", "ledger_settled"], key: ["id"], booleans: ["ledger_settled"]),
        StoreTable("report_areas", columns: ["report_id", "layer", "layer_version", "area_id"], key: ["report_id", "layer"]),
        StoreTable("audit", columns: ["sequence", "report_id", "actor", "at", "action", "from_status", "to_status", "reason", "hash"], key: ["sequence"]),
        StoreTable("claims", columns: ["report_id", "holder", "expires_at"], key: ["report_id"]),
        StoreTable("grants", columns: ["report_id", "viewer_id", "granted_by", "granted_at"], key: ["viewer_id", "report_id"]),
        StoreTable("attachments", columns: ["id", "report_id", "content_type", "size", "sha256", "file", "uploaded_by", "created_at"], key: ["id"]),
        StoreTable("revisions", columns: ["report_id", "revision", "at", "actor", "occurred_on", "lon", "lat", "areas", "payload"],
                   key: ["report_id", "revision"]),
        StoreTable("secrets", columns: ["name", "value"], key: ["name"]),
        StoreTable("counters", columns: ["layer", "basis", "area_id", "day", "kind", "status", "grp", "n"],
                   key: ["layer", "basis", "area_id", "day", "kind", "status", "grp"]),
        StoreTable("publications", columns: ["id", "day", "published_at", "blocks", "lines_moved", "k"], key: ["id"]),
        StoreTable("publication_lines", columns: ["id", "kind", "class_key", "accounted", "carry", "origin_class", "origin_geography", "identity"], key: ["id"]),
        StoreTable("publication_blocks", columns: ["publication", "position", "line", "day", "value"], key: ["publication", "position"]),
        StoreTable("publication_geography", columns: ["layer", "version"], key: ["layer"]),
        StoreTable("alerts", columns: ["id", "title", "message", "severity", "starts_at", "ends_at", "created_at", "updated_at"], key: ["id"]),
        StoreTable("resources", columns: ["id", "title", "category", "link", "created_at", "updated_at"], key: ["id"]),
        StoreTable("outbox", columns: ["id", "report_id", "kind", "status", "at", "attempts", "next_attempt_at", "lease_until", "last_error", "done_at"],
                   key: ["id"]),
        StoreTable("outbox_deliveries", columns: ["event_id", "endpoint", "at"], key: ["event_id", "endpoint"]),
        StoreTable("meta", columns: ["key", "value"], key: ["key"]),
    ]

    /// The SQL that inserts one row, with placeholders made by `placeholder(n)` (1-based); `meta`
    /// rows replace the target's own.
    public func insertSQL(rows: Int, placeholder: (Int) -> String) -> String {
        let tuples = (0..<rows).map { r in "(" + (1...columns.count).map { placeholder(r * columns.count + $0) }.joined(separator: ", ") + ")" }
        let conflict = name == "meta" ? " ON CONFLICT (key) DO UPDATE SET value = excluded.value" : ""
        return "INSERT INTO \(name) (\(columns.joined(separator: ", "))) VALUES " + tuples.joined(separator: ", ") + conflict
    }

    /// The query of one page.
    public func pageSQL(select: [String], limitPlaceholder: String, offsetPlaceholder: String) -> String {
        "SELECT \(select.joined(separator: ", ")) FROM \(name) ORDER BY \(key.joined(separator: ", ")) LIMIT \(limitPlaceholder) OFFSET \(offsetPlaceholder)"
    }
}
