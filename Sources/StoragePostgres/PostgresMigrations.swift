import Storage

/// The PostgreSQL schema, one migration per version with the same numbers as the SQLite schema
/// (a store moved between backends keeps its version). Migrations are append-only: a released
/// one is never edited.
///
/// Text that is sorted or compared is `COLLATE "C"`: byte order, as in SQLite, whatever locale
/// the database was created with, so ids, timestamps and days sort the same on both backends.
/// Instants and days stay ISO 8601 text for the same reason.
enum PostgresMigrations {
    static let all: [(version: Int, sql: String)] = [
        (1, """
        CREATE TABLE meta (
            key   TEXT COLLATE "C" PRIMARY KEY,
            value BIGINT NOT NULL
        );
        INSERT INTO meta (key, value) VALUES ('data_version', 0);
        -- Every process learns of a new data version at once: the notification is sent when the
        -- bumping transaction commits (and never if it rolls back).
        CREATE FUNCTION geoserve_notify_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.key = 'data_version' THEN
                PERFORM pg_notify('geoserve_data_version', NEW.value::text);
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER meta_notify AFTER UPDATE ON meta FOR EACH ROW EXECUTE FUNCTION geoserve_notify_data_version();
        CREATE TABLE layers (
            name              TEXT COLLATE "C" PRIMARY KEY,
            kind              TEXT NOT NULL CHECK (kind IN ('areas', 'points')),
            published_version INTEGER,
            created_at        TEXT COLLATE "C" NOT NULL
        );
        CREATE TABLE layer_versions (
            layer          TEXT COLLATE "C" NOT NULL REFERENCES layers (name),
            version        INTEGER NOT NULL,
            created_at     TEXT COLLATE "C" NOT NULL,
            source         TEXT,
            feature_count  INTEGER NOT NULL,
            repaired_count INTEGER NOT NULL,
            rejected_count INTEGER NOT NULL,
            PRIMARY KEY (layer, version)
        );
        CREATE TABLE areas (
            layer      TEXT COLLATE "C" NOT NULL,
            version    INTEGER NOT NULL,
            area_id    TEXT COLLATE "C" NOT NULL,
            name       TEXT,
            properties TEXT NOT NULL,
            geometry   TEXT NOT NULL,
            PRIMARY KEY (layer, version, area_id),
            FOREIGN KEY (layer, version) REFERENCES layer_versions (layer, version)
        );
        """),
        (2, """
        CREATE TABLE accounts (
            id            TEXT COLLATE "C" PRIMARY KEY,
            email         TEXT NOT NULL,
            role          TEXT NOT NULL CHECK (role IN ('reporter', 'verifier', 'researcher', 'viewer', 'admin')),
            password_hash TEXT NOT NULL,
            disabled      BOOLEAN NOT NULL DEFAULT false,
            created_at    TEXT COLLATE "C" NOT NULL
        );
        -- Case-insensitive uniqueness, as SQLite's NOCASE: two processes creating the same
        -- address at once get one account and one conflict.
        CREATE UNIQUE INDEX accounts_by_email ON accounts (lower(email));
        CREATE TABLE tokens (
            token_hash TEXT COLLATE "C" PRIMARY KEY,
            account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
            created_at TEXT COLLATE "C" NOT NULL,
            expires_at TEXT COLLATE "C" NOT NULL,
            revoked_at TEXT COLLATE "C"
        );
        CREATE INDEX tokens_by_account ON tokens (account_id);
        """),
        (3, """
        CREATE TABLE reports (
            id                TEXT COLLATE "C" PRIMARY KEY,
            kind              TEXT COLLATE "C" NOT NULL CHECK (kind IN ('covid', 'misconduct')),
            status            TEXT COLLATE "C" NOT NULL CHECK (status IN ('pending', 'verified', 'rejected', 'revoked', 'withdrawn')),
            version           INTEGER NOT NULL,
            reporter_id       TEXT COLLATE "C" REFERENCES accounts (id),
            receipt_hash      TEXT UNIQUE,
            idempotency_scope TEXT COLLATE "C",
            idempotency_key   TEXT COLLATE "C",
            occurred_on       TEXT COLLATE "C" NOT NULL,
            submitted_at      TEXT COLLATE "C" NOT NULL,
            updated_at        TEXT COLLATE "C" NOT NULL,
            lon               DOUBLE PRECISION,
            lat               DOUBLE PRECISION,
            payload           TEXT NOT NULL
        );
        CREATE UNIQUE INDEX reports_by_idempotency ON reports (idempotency_scope, idempotency_key) WHERE idempotency_key IS NOT NULL;
        CREATE INDEX reports_by_reporter ON reports (reporter_id, kind, submitted_at);
        CREATE INDEX reports_by_status ON reports (status, submitted_at);
        CREATE TABLE report_areas (
            report_id     TEXT COLLATE "C" NOT NULL REFERENCES reports (id),
            layer         TEXT COLLATE "C" NOT NULL,
            layer_version INTEGER NOT NULL,
            area_id       TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (report_id, layer)
        );
        CREATE INDEX report_areas_by_area ON report_areas (layer, area_id);
        CREATE TABLE audit (
            sequence    BIGINT PRIMARY KEY,
            report_id   TEXT COLLATE "C",
            actor       TEXT NOT NULL,
            at          TEXT COLLATE "C" NOT NULL,
            action      TEXT COLLATE "C" NOT NULL,
            from_status TEXT,
            to_status   TEXT,
            reason      TEXT,
            hash        TEXT NOT NULL
        );
        CREATE INDEX audit_by_report ON audit (report_id, sequence);
        CREATE FUNCTION geoserve_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the audit trail is append-only';
        END $$;
        CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit FOR EACH ROW EXECUTE FUNCTION geoserve_audit_append_only();
        CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit FOR EACH ROW EXECUTE FUNCTION geoserve_audit_append_only();
        """),
        (4, """
        CREATE TABLE claims (
            report_id  TEXT COLLATE "C" PRIMARY KEY REFERENCES reports (id),
            holder     TEXT COLLATE "C" NOT NULL,
            expires_at TEXT COLLATE "C" NOT NULL
        );
        CREATE TABLE grants (
            report_id  TEXT COLLATE "C" NOT NULL REFERENCES reports (id),
            viewer_id  TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
            granted_by TEXT NOT NULL,
            granted_at TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (viewer_id, report_id)
        );
        """),
        (5, """
        CREATE TABLE attachments (
            id           TEXT COLLATE "C" PRIMARY KEY,
            report_id    TEXT COLLATE "C" NOT NULL REFERENCES reports (id),
            content_type TEXT NOT NULL,
            size         BIGINT NOT NULL,
            sha256       TEXT NOT NULL,
            file         TEXT NOT NULL,
            uploaded_by  TEXT NOT NULL,
            created_at   TEXT COLLATE "C" NOT NULL
        );
        CREATE INDEX attachments_by_report ON attachments (report_id);
        """),
        (6, """
        CREATE TABLE revisions (
            report_id   TEXT COLLATE "C" NOT NULL REFERENCES reports (id),
            revision    INTEGER NOT NULL,
            at          TEXT COLLATE "C" NOT NULL,
            actor       TEXT NOT NULL,
            occurred_on TEXT COLLATE "C" NOT NULL,
            lon         DOUBLE PRECISION,
            lat         DOUBLE PRECISION,
            areas       TEXT NOT NULL,
            payload     TEXT NOT NULL,
            PRIMARY KEY (report_id, revision)
        );
        """),
        (7, """
        CREATE TABLE secrets (
            name  TEXT COLLATE "C" PRIMARY KEY,
            value TEXT NOT NULL
        );
        """),
        (8, """
        ALTER TABLE reports ADD COLUMN verified_on TEXT COLLATE "C";
        ALTER TABLE reports ADD COLUMN group_key TEXT COLLATE "C" NOT NULL DEFAULT '';
        CREATE TABLE counters (
            layer   TEXT COLLATE "C" NOT NULL,
            basis   TEXT COLLATE "C" NOT NULL CHECK (basis IN ('occurred', 'submitted', 'verified')),
            area_id TEXT COLLATE "C" NOT NULL,
            day     TEXT COLLATE "C" NOT NULL,
            kind    TEXT COLLATE "C" NOT NULL,
            status  TEXT COLLATE "C" NOT NULL,
            grp     TEXT COLLATE "C" NOT NULL,
            n       BIGINT NOT NULL,
            PRIMARY KEY (layer, basis, area_id, day, kind, status, grp)
        );
        """),
        (9, """
        -- Only signed-in reporters' reports are looked up by reporter (the 14-day rule): anonymous
        -- and imported reports, most of them, no longer fill the index.
        DROP INDEX reports_by_reporter;
        CREATE INDEX reports_by_reporter ON reports (reporter_id, kind, submitted_at) WHERE reporter_id IS NOT NULL;
        -- Receipts are derived from the report id, never stored: the column stays empty, and its
        -- unique index cost every insert a lookup.
        ALTER TABLE reports DROP CONSTRAINT reports_receipt_hash_key;
        """),
        (10, """
        -- Idempotency keys arrive as a keyed digest, stored beside a digest of the request that
        -- used the key: a retry must repeat that request, and another request with the key is
        -- refused instead of being answered with someone else's report.
        ALTER TABLE reports ADD COLUMN idempotency_request TEXT COLLATE "C";
        """),
        (11, """
        -- Failed logins per account and per client address, in the store so that processes
        -- sharing it count together.
        CREATE TABLE login_failures (
            key          TEXT COLLATE "C" PRIMARY KEY,
            window_start TEXT COLLATE "C" NOT NULL,
            failures     INTEGER NOT NULL
        );
        """),
        (12, """
        -- Publications: public numbers are sums of the blocks publications released, and the
        -- ledger (private) is what the next publication plans from.
        CREATE TABLE publications (
            id           BIGINT PRIMARY KEY,
            day          TEXT COLLATE "C" NOT NULL,
            published_at TEXT COLLATE "C" NOT NULL,
            blocks       INTEGER NOT NULL
        );
        CREATE TABLE publication_blocks (
            publication BIGINT NOT NULL REFERENCES publications (id),
            kind        TEXT COLLATE "C" NOT NULL,
            class_key   TEXT COLLATE "C" NOT NULL,
            day         TEXT COLLATE "C" NOT NULL,
            value       BIGINT NOT NULL,
            PRIMARY KEY (publication, kind, class_key, day)
        );
        CREATE TABLE publication_ledger (
            kind      TEXT COLLATE "C" NOT NULL,
            class_key TEXT COLLATE "C" NOT NULL,
            accounted BIGINT NOT NULL,
            carry     BIGINT NOT NULL,
            PRIMARY KEY (kind, class_key)
        );
        """),
        (13, """
        -- Alerts and resources: what admins post beside the numbers.
        CREATE TABLE alerts (
            id         TEXT COLLATE "C" PRIMARY KEY,
            title      TEXT NOT NULL,
            message    TEXT NOT NULL,
            severity   TEXT COLLATE "C" NOT NULL CHECK (severity IN ('info', 'warning', 'critical')),
            starts_at  TEXT COLLATE "C" NOT NULL,
            ends_at    TEXT COLLATE "C",
            created_at TEXT COLLATE "C" NOT NULL,
            updated_at TEXT COLLATE "C" NOT NULL
        );
        CREATE TABLE resources (
            id         TEXT COLLATE "C" PRIMARY KEY,
            title      TEXT COLLATE "C" NOT NULL,
            category   TEXT COLLATE "C" NOT NULL,
            link       TEXT NOT NULL,
            created_at TEXT COLLATE "C" NOT NULL,
            updated_at TEXT COLLATE "C" NOT NULL
        );
        """),
        (14, """
        -- Status notifications: one event per status change, written with the change, until
        -- every configured endpoint has it.
        CREATE TABLE outbox (
            id              TEXT COLLATE "C" PRIMARY KEY,
            report_id       TEXT COLLATE "C" NOT NULL,
            kind            TEXT COLLATE "C" NOT NULL,
            status          TEXT COLLATE "C" NOT NULL,
            at              TEXT COLLATE "C" NOT NULL,
            attempts        INTEGER NOT NULL DEFAULT 0,
            next_attempt_at TEXT COLLATE "C" NOT NULL,
            lease_until     TEXT COLLATE "C",
            last_error      TEXT,
            done_at         TEXT COLLATE "C"
        );
        CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE done_at IS NULL;
        CREATE TABLE outbox_deliveries (
            event_id TEXT COLLATE "C" NOT NULL,
            endpoint TEXT COLLATE "C" NOT NULL,
            at       TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (event_id, endpoint)
        );
        """),
        (15, """
        -- Each counter cell remembers the data version of its last change, so that statistics
        -- read once can be brought up to date from the areas changed since instead of from the
        -- whole layer. Cells that fall to zero stay (with their version) for the same reason.
        -- A counter rebuild replaces cells wholesale and records its version instead: views
        -- computed before it are then computed again whole.
        ALTER TABLE counters ADD COLUMN data_version BIGINT NOT NULL DEFAULT 0;
        CREATE INDEX counters_changed ON counters (layer, basis, data_version);
        INSERT INTO meta (key, value) VALUES ('counters_rebuilt', 0);
        """),
        (16, """
        -- Ledger lines: reports are accounted to a line, which keeps its released history and its
        -- carry when the areas change around them (a new layer, a renamed area) and only takes
        -- a new class. Blocks name their line; the lines' classes say where they count now.
        CREATE TABLE publication_lines (
            id        BIGINT PRIMARY KEY,
            kind      TEXT COLLATE "C" NOT NULL,
            class_key TEXT COLLATE "C" NOT NULL,
            accounted BIGINT NOT NULL,
            carry     BIGINT NOT NULL
        );
        INSERT INTO publication_lines (id, kind, class_key, accounted, carry)
            SELECT row_number() OVER (ORDER BY kind, class_key), kind, class_key, sum(accounted), sum(carry) FROM (
                SELECT kind, class_key, accounted, carry FROM publication_ledger
                UNION ALL SELECT DISTINCT kind, class_key, 0, 0 FROM publication_blocks) AS both_sides
            GROUP BY kind, class_key;
        CREATE TABLE line_blocks (
            publication BIGINT NOT NULL REFERENCES publications (id),
            position    INTEGER NOT NULL,
            line        BIGINT NOT NULL REFERENCES publication_lines (id),
            day         TEXT COLLATE "C" NOT NULL,
            value       BIGINT NOT NULL,
            PRIMARY KEY (publication, position)
        );
        INSERT INTO line_blocks (publication, position, line, day, value)
            SELECT b.publication, row_number() OVER (PARTITION BY b.publication ORDER BY b.day, l.id), l.id, b.day, b.value
            FROM publication_blocks b JOIN publication_lines l ON l.kind = b.kind AND l.class_key = b.class_key;
        DROP TABLE publication_blocks;
        DROP TABLE publication_ledger;
        ALTER TABLE line_blocks RENAME TO publication_blocks;
        ALTER TABLE publication_blocks RENAME CONSTRAINT line_blocks_pkey TO publication_blocks_pkey;
        -- The area layers' versions the last publication saw: a line's area in a layer is
        -- decided again only when that layer changed.
        CREATE TABLE publication_geography (
            layer   TEXT COLLATE "C" PRIMARY KEY,
            version INTEGER NOT NULL
        );
        ALTER TABLE publications ADD COLUMN lines_moved INTEGER NOT NULL DEFAULT 0;
        -- The line each verified report was accounted to by the last publication. Reports
        -- verified by then are given the line of their class; a report whose class changed
        -- since that publication is accounted again as before lines.
        ALTER TABLE reports ADD COLUMN ledger_line BIGINT;
        -- Set on reports a publication kept in their line although a change of the areas put them
        -- in another class: decided once, never again.
        ALTER TABLE reports ADD COLUMN ledger_settled BOOLEAN NOT NULL DEFAULT false;
        UPDATE reports SET ledger_line = l.id FROM publication_lines l
        WHERE reports.status = 'verified' AND reports.verified_on <= (SELECT max(day) FROM publications)
          AND l.kind = reports.kind AND l.accounted > 0 AND l.class_key = \(PostgresStore.classKey("reports.id"));
        """),
        (17, """
        -- Each line remembers where it was opened (see the embedded store's migration 17): its
        -- class then and the area layers' versions then; lines kept so far were opened, as far as
        -- anyone can tell now, on the maps of the last publication. `ledger_settled` is no
        -- longer read: reports do not move between lines when areas change.
        ALTER TABLE publication_lines ADD COLUMN origin_class TEXT COLLATE "C";
        ALTER TABLE publication_lines ADD COLUMN origin_geography TEXT COLLATE "C";
        UPDATE publication_lines SET origin_class = class_key,
            origin_geography = (SELECT string_agg(layer || chr(31) || version, chr(30) ORDER BY layer) FROM publication_geography)
        WHERE EXISTS (SELECT 1 FROM publication_geography);
        -- The public k each publication was made under; NULL for those made before it was kept.
        ALTER TABLE publications ADD COLUMN k INTEGER;
        """),
        (18, """
        -- New reports join the line whose identity is their class's on the maps: per area layer,
        -- the geometry of their area there (see the embedded store's migration 18). Lines kept so
        -- far get their origin's identity at the next publication.
        ALTER TABLE publication_lines ADD COLUMN identity TEXT COLLATE "C";
        """),
    ]

    static var latest: Int { all.last!.version }

    /// The advisory lock migrations run under, so that processes starting together apply each
    /// migration once: the key is "geoserve" in ASCII, one value for every geoserve database.
    static let lockKey: Int64 = 0x67656F7365727665
}

extension PostgresWrites: MigrationSteps {
    var versions: [Int] { PostgresMigrations.all.map(\.version) }

    func appliedVersion() throws -> Int {
        try db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
        return Int(try db.query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").firstInt ?? 0)
    }

    func apply(version: Int, at: String) throws {
        guard let migration = PostgresMigrations.all.first(where: { $0.version == version }) else { return }
        try db.transaction {
            try db.execute(migration.sql)
            try db.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [.int(Int64(version)), .text(at)])
        }
    }
}
