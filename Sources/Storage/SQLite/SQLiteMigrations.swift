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
    ]

    static var latest: Int { all.last!.version }
}
