import DomainKernel
import Foundation
import Storage

/// The embedded store's schema, one migration per version. Migrations are append-only: a
/// released one is never edited.
enum SQLiteMigrations {
    static let all: [(version: Int, sql: String)] = [
        (1, """
        CREATE TABLE meta (
            key   TEXT PRIMARY KEY,
            value INTEGER NOT NULL
        );
        INSERT INTO meta (key, value) VALUES ('data_version', 0);
        CREATE TABLE layers (
            name              TEXT PRIMARY KEY,
            kind              TEXT NOT NULL CHECK (kind IN ('areas', 'points')),
            published_version INTEGER,
            created_at        TEXT NOT NULL
        );
        CREATE TABLE layer_versions (
            layer          TEXT NOT NULL REFERENCES layers (name),
            version        INTEGER NOT NULL,
            created_at     TEXT NOT NULL,
            source         TEXT,
            feature_count  INTEGER NOT NULL,
            repaired_count INTEGER NOT NULL,
            rejected_count INTEGER NOT NULL,
            PRIMARY KEY (layer, version)
        );
        CREATE TABLE areas (
            layer      TEXT NOT NULL,
            version    INTEGER NOT NULL,
            area_id    TEXT NOT NULL,
            name       TEXT,
            properties TEXT NOT NULL,
            geometry   TEXT NOT NULL,
            PRIMARY KEY (layer, version, area_id),
            FOREIGN KEY (layer, version) REFERENCES layer_versions (layer, version)
        );
        """),
        (2, """
        CREATE TABLE accounts (
            id            TEXT PRIMARY KEY,
            email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
            role          TEXT NOT NULL CHECK (role IN ('reporter', 'verifier', 'researcher', 'viewer', 'admin')),
            password_hash TEXT NOT NULL,
            disabled      INTEGER NOT NULL DEFAULT 0,
            created_at    TEXT NOT NULL
        );
        CREATE TABLE tokens (
            token_hash TEXT PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts (id),
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            revoked_at TEXT
        );
        CREATE INDEX tokens_by_account ON tokens (account_id);
        """),
        (3, """
        CREATE TABLE reports (
            id                TEXT PRIMARY KEY,
            kind              TEXT NOT NULL CHECK (kind IN ('covid', 'misconduct')),
            status            TEXT NOT NULL CHECK (status IN ('pending', 'verified', 'rejected', 'revoked', 'withdrawn')),
            version           INTEGER NOT NULL,
            reporter_id       TEXT REFERENCES accounts (id),
            receipt_hash      TEXT UNIQUE,
            idempotency_scope TEXT,
            idempotency_key   TEXT,
            occurred_on       TEXT NOT NULL,
            submitted_at      TEXT NOT NULL,
            updated_at        TEXT NOT NULL,
            lon               REAL,
            lat               REAL,
            payload           TEXT NOT NULL
        );
        CREATE UNIQUE INDEX reports_by_idempotency ON reports (idempotency_scope, idempotency_key) WHERE idempotency_key IS NOT NULL;
        CREATE INDEX reports_by_reporter ON reports (reporter_id, kind, submitted_at);
        CREATE INDEX reports_by_status ON reports (status, submitted_at);
        CREATE TABLE report_areas (
            report_id     TEXT NOT NULL REFERENCES reports (id),
            layer         TEXT NOT NULL,
            layer_version INTEGER NOT NULL,
            area_id       TEXT NOT NULL,
            PRIMARY KEY (report_id, layer)
        );
        CREATE INDEX report_areas_by_area ON report_areas (layer, area_id);
        CREATE TABLE audit (
            sequence    INTEGER PRIMARY KEY,
            report_id   TEXT,
            actor       TEXT NOT NULL,
            at          TEXT NOT NULL,
            action      TEXT NOT NULL,
            from_status TEXT,
            to_status   TEXT,
            reason      TEXT,
            hash        TEXT NOT NULL
        );
        CREATE INDEX audit_by_report ON audit (report_id, sequence);
        CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
        CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
        """),
        (4, """
        CREATE TABLE claims (
            report_id  TEXT PRIMARY KEY REFERENCES reports (id),
            holder     TEXT NOT NULL,
            expires_at TEXT NOT NULL
        );
        CREATE TABLE grants (
            report_id  TEXT NOT NULL REFERENCES reports (id),
            viewer_id  TEXT NOT NULL REFERENCES accounts (id),
            granted_by TEXT NOT NULL,
            granted_at TEXT NOT NULL,
            PRIMARY KEY (viewer_id, report_id)
        );
        """),
        (5, """
        CREATE TABLE attachments (
            id           TEXT PRIMARY KEY,
            report_id    TEXT NOT NULL REFERENCES reports (id),
            content_type TEXT NOT NULL,
            size         INTEGER NOT NULL,
            sha256       TEXT NOT NULL,
            file         TEXT NOT NULL,
            uploaded_by  TEXT NOT NULL,
            created_at   TEXT NOT NULL
        );
        CREATE INDEX attachments_by_report ON attachments (report_id);
        """),
        (6, """
        CREATE TABLE revisions (
            report_id   TEXT NOT NULL REFERENCES reports (id),
            revision    INTEGER NOT NULL,
            at          TEXT NOT NULL,
            actor       TEXT NOT NULL,
            occurred_on TEXT NOT NULL,
            lon         REAL,
            lat         REAL,
            areas       TEXT NOT NULL,
            payload     TEXT NOT NULL,
            PRIMARY KEY (report_id, revision)
        );
        """),
        (7, """
        CREATE TABLE secrets (
            name  TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """),
        (8, """
        ALTER TABLE reports ADD COLUMN verified_on TEXT;
        ALTER TABLE reports ADD COLUMN group_key TEXT NOT NULL DEFAULT '';
        CREATE TABLE counters (
            layer   TEXT NOT NULL,
            basis   TEXT NOT NULL CHECK (basis IN ('occurred', 'submitted', 'verified')),
            area_id TEXT NOT NULL,
            day     TEXT NOT NULL,
            kind    TEXT NOT NULL,
            status  TEXT NOT NULL,
            grp     TEXT NOT NULL,
            n       INTEGER NOT NULL,
            PRIMARY KEY (layer, basis, area_id, day, kind, status, grp)
        ) WITHOUT ROWID;
        """),
        (9, """
        -- Only signed-in reporters' reports are looked up by reporter (the 14-day rule): anonymous
        -- and imported reports, most of them, no longer fill the index.
        DROP INDEX reports_by_reporter;
        CREATE INDEX reports_by_reporter ON reports (reporter_id, kind, submitted_at) WHERE reporter_id IS NOT NULL;
        """),
        (10, """
        -- Idempotency keys arrive as a keyed digest, stored beside a digest of the request that
        -- used the key: a retry must repeat that request, and another request with the key is
        -- refused instead of being answered with someone else's report.
        ALTER TABLE reports ADD COLUMN idempotency_request TEXT;
        """),
        (11, """
        -- Failed logins per account and per client address, in the store so that processes
        -- sharing it count together.
        CREATE TABLE login_failures (
            key          TEXT PRIMARY KEY,
            window_start TEXT NOT NULL,
            failures     INTEGER NOT NULL
        ) WITHOUT ROWID;
        """),
        (12, """
        -- Publications: public numbers are sums of the blocks publications released, and the
        -- ledger (private) is what the next publication plans from.
        CREATE TABLE publications (
            id           INTEGER PRIMARY KEY,
            day          TEXT NOT NULL,
            published_at TEXT NOT NULL,
            blocks       INTEGER NOT NULL
        );
        CREATE TABLE publication_blocks (
            publication INTEGER NOT NULL REFERENCES publications (id),
            kind        TEXT NOT NULL,
            class_key   TEXT NOT NULL,
            day         TEXT NOT NULL,
            value       INTEGER NOT NULL,
            PRIMARY KEY (publication, kind, class_key, day)
        ) WITHOUT ROWID;
        CREATE TABLE publication_ledger (
            kind      TEXT NOT NULL,
            class_key TEXT NOT NULL,
            accounted INTEGER NOT NULL,
            carry     INTEGER NOT NULL,
            PRIMARY KEY (kind, class_key)
        ) WITHOUT ROWID;
        """),
        (13, """
        -- Alerts and resources: what admins post beside the numbers.
        CREATE TABLE alerts (
            id         TEXT PRIMARY KEY,
            title      TEXT NOT NULL,
            message    TEXT NOT NULL,
            severity   TEXT NOT NULL CHECK (severity IN ('info', 'warning', 'critical')),
            starts_at  TEXT NOT NULL,
            ends_at    TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE resources (
            id         TEXT PRIMARY KEY,
            title      TEXT NOT NULL,
            category   TEXT NOT NULL,
            link       TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        ) WITHOUT ROWID;
        """),
        (14, """
        -- Status notifications: one event per status change, written with the change, until
        -- every configured endpoint has it.
        CREATE TABLE outbox (
            id              TEXT PRIMARY KEY,
            report_id       TEXT NOT NULL,
            kind            TEXT NOT NULL,
            status          TEXT NOT NULL,
            at              TEXT NOT NULL,
            attempts        INTEGER NOT NULL DEFAULT 0,
            next_attempt_at TEXT NOT NULL,
            lease_until     TEXT,
            last_error      TEXT,
            done_at         TEXT
        ) WITHOUT ROWID;
        CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE done_at IS NULL;
        CREATE TABLE outbox_deliveries (
            event_id TEXT NOT NULL,
            endpoint TEXT NOT NULL,
            at       TEXT NOT NULL,
            PRIMARY KEY (event_id, endpoint)
        ) WITHOUT ROWID;
        """),
        (15, """
        -- Each counter cell remembers the data version of its last change, so that statistics
        -- read once can be brought up to date from the areas changed since instead of from the
        -- whole layer. Cells that fall to zero stay (with their version) for the same reason.
        -- A counter rebuild replaces cells wholesale and records its version instead: views
        -- computed before it are then computed again whole.
        ALTER TABLE counters ADD COLUMN data_version INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX counters_changed ON counters (layer, basis, data_version);
        INSERT INTO meta (key, value) VALUES ('counters_rebuilt', 0);
        """),
        (16, """
        -- Ledger lines: reports are accounted to a line, which keeps its released history and its
        -- carry when the areas change around them (a new layer, a renamed area) and only takes
        -- a new class. Blocks name their line; the lines' classes say where they count now.
        CREATE TABLE publication_lines (
            id        INTEGER PRIMARY KEY,
            kind      TEXT NOT NULL,
            class_key TEXT NOT NULL,
            accounted INTEGER NOT NULL,
            carry     INTEGER NOT NULL
        );
        INSERT INTO publication_lines (id, kind, class_key, accounted, carry)
            SELECT row_number() OVER (ORDER BY kind, class_key), kind, class_key, SUM(accounted), SUM(carry) FROM (
                SELECT kind, class_key, accounted, carry FROM publication_ledger
                UNION ALL SELECT DISTINCT kind, class_key, 0, 0 FROM publication_blocks)
            GROUP BY kind, class_key;
        CREATE TABLE line_blocks (
            publication INTEGER NOT NULL REFERENCES publications (id),
            position    INTEGER NOT NULL,
            line        INTEGER NOT NULL REFERENCES publication_lines (id),
            day         TEXT NOT NULL,
            value       INTEGER NOT NULL,
            PRIMARY KEY (publication, position)
        ) WITHOUT ROWID;
        INSERT INTO line_blocks (publication, position, line, day, value)
            SELECT b.publication, row_number() OVER (PARTITION BY b.publication ORDER BY b.day, l.id), l.id, b.day, b.value
            FROM publication_blocks b JOIN publication_lines l ON l.kind = b.kind AND l.class_key = b.class_key;
        DROP TABLE publication_blocks;
        DROP TABLE publication_ledger;
        ALTER TABLE line_blocks RENAME TO publication_blocks;
        -- The area layers' versions the last publication saw: a line's area in a layer is
        -- decided again only when that layer changed.
        CREATE TABLE publication_geography (
            layer   TEXT PRIMARY KEY,
            version INTEGER NOT NULL
        );
        ALTER TABLE publications ADD COLUMN lines_moved INTEGER NOT NULL DEFAULT 0;
        -- The line each verified report was accounted to by the last publication. Reports
        -- verified by then are given the line of their class; a report whose class changed
        -- since that publication is accounted again as before lines.
        ALTER TABLE reports ADD COLUMN ledger_line INTEGER;
        -- Set on reports a publication kept in their line although a change of the areas put them
        -- in another class: decided once, never again.
        ALTER TABLE reports ADD COLUMN ledger_settled INTEGER NOT NULL DEFAULT 0;
        UPDATE reports SET ledger_line = (SELECT l.id FROM publication_lines l WHERE l.kind = reports.kind AND l.accounted > 0
                                          AND l.class_key = \(SQLiteStore.classKey("reports.id")))
        WHERE status = 'verified' AND verified_on <= (SELECT MAX(day) FROM publications);
        """),
        (17, """
        -- Each line remembers where it was opened: its class then and the area layers' versions
        -- then. Its class after any change of the areas is decided from that origin and the maps
        -- alone, never from where its reports lie; lines kept so far were opened, as far as
        -- anyone can tell now, in their class on the maps of the last publication. Reports no
        -- longer move between lines when areas change, so no report is settled any more
        -- (`ledger_settled` is kept for older copies and no longer read).
        ALTER TABLE publication_lines ADD COLUMN origin_class TEXT;
        ALTER TABLE publication_lines ADD COLUMN origin_geography TEXT;
        UPDATE publication_lines SET origin_class = class_key,
            origin_geography = (SELECT group_concat(layer || char(31) || version, char(30)) FROM
                                    (SELECT layer, version FROM publication_geography ORDER BY layer))
        WHERE EXISTS (SELECT 1 FROM publication_geography);
        -- The public k each publication was made under; NULL for those made before it was kept.
        ALTER TABLE publications ADD COLUMN k INTEGER;
        """),
        (18, """
        -- New reports join the line whose identity is their class's on the maps: per area layer,
        -- the geometry of their area there (a digest of it), so which line takes them depends on
        -- the maps alone. Lines kept so far get their origin's identity at the next publication.
        ALTER TABLE publication_lines ADD COLUMN identity TEXT;
        """),
    ]

    /// Work a migration does on the data after its SQL, in the same transaction.
    static let dataSteps: [Int: @Sendable (SQLiteConnection, TimeZone) throws -> Void] = [
        // Counters start from the reports already stored.
        8: { db, zone in
            try SQLiteStore.backfillGroups(db)
            try SQLiteStore.fillCounters(zone: zone, db)
        },
    ]

    static var latest: Int { all.last!.version }
}

extension SQLiteWrites: MigrationSteps {
    var versions: [Int] { SQLiteMigrations.all.map(\.version) }

    func appliedVersion() throws -> Int {
        try db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
        return Int(try db.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") ?? 0)
    }

    func apply(version: Int, at: String) throws {
        guard let migration = SQLiteMigrations.all.first(where: { $0.version == version }) else { return }
        try db.transaction {
            try db.execute(migration.sql)
            try SQLiteMigrations.dataSteps[version]?(db, zone)
            try db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").bind(.int(Int64(version)), .text(at)).run()
        }
    }
}
