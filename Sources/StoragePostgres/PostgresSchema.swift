import Foundation
import Storage

/// The store's schema on PostgreSQL compared with the one its migrations make, as `SQLiteSchema`
/// does for a file: a restored dump, or a database someone with its owner's rights changed, may
/// carry a trigger that makes a researcher an admin when a token is issued, a rule or policy
/// that rewrites a read, a function whose body was replaced, or lack the audit table's
/// append-only triggers (or have them disabled).
///
/// The reference is built where the comparison is made: in one transaction, a schema of a
/// random name is created beside the store's, the migrations up to the store's version run in
/// it, both schemas' catalog entries are read, and everything is rolled back, so nothing is left
/// and no other session ever sees the reference. Compared by kind and name, each with its
/// definition as the server prints it with the schema's own name taken out: relations (their
/// columns, types, collations, defaults, row security), indexes, constraints, triggers (with
/// whether they are enabled), functions, rules, policies and types. Objects that belong to an
/// extension (PostGIS installed in the same schema) are left out.
enum PostgresSchema {
    static func differences(_ db: PostgresConnection) throws -> [SchemaDifference] {
        let schema = try db.query("SELECT current_schema()::text", prepare: false).string(0, 0)
        let version = Int(try db.query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", prepare: false).firstInt ?? 0)
        let reference = "geoserve_reference_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try db.execute("BEGIN")
        defer { if !db.isBroken { try? db.execute("ROLLBACK") } }
        let found = try objects(in: schema, db)
        // A Result, not do/catch: Swift 6.3 fails an ownership check on a typed catch here.
        if case .failure(let error) = Result(catching: { () throws(PostgresError) in try db.execute("CREATE SCHEMA \(reference)") }) {
            guard error.sqlstate == "42501" else { throw error }
            throw SchemaCheckUnavailable(reason: "\(error.storageError("create a schema")) (the check builds its reference in a schema of its own, rolled back at once, which needs CREATE on the database)")
        }
        try db.execute("SET LOCAL search_path = \(reference)")
        try db.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
        for migration in PostgresMigrations.all where migration.version <= version { try db.execute(migration.sql) }
        let expected = try objects(in: reference, db)
        return SchemaDifference.between(found: found, expected: expected)
    }

    /// Every object of `schema` by kind and name, with its definition. The search path is set to
    /// the schema first, so that the server prints its names unqualified; what qualification is
    /// left (a function's header) is taken out.
    private static func objects(in schema: String, _ db: PostgresConnection) throws -> [String: [String: String]] {
        try db.execute("SET LOCAL search_path = \(quoted(schema))")
        let rows = try db.query(catalogSQL, [.text(schema)], prepare: false)
        var out: [String: [String: String]] = [:]
        for row in 0..<rows.count {
            let definition = rows.string(row, 2).replacingOccurrences(of: quoted(schema) + ".", with: "").replacingOccurrences(of: schema + ".", with: "")
            out[rows.string(row, 0), default: [:]][rows.string(row, 1)] = definition
        }
        return out
    }

    private static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    private static let catalogSQL = """
        WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = $1),
        members AS (SELECT objid FROM pg_depend WHERE deptype = 'e')
        SELECT CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view'
                              WHEN 'S' THEN 'sequence' WHEN 'f' THEN 'foreign table' WHEN 'i' THEN 'index' WHEN 'I' THEN 'index'
                              WHEN 'c' THEN 'type' ELSE 'relation' END,
               c.relname::text,
               CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid)
                    WHEN c.relkind IN ('i', 'I') THEN pg_get_indexdef(c.oid)
                    ELSE coalesce((SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                                                     || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
                                                     || coalesce(' collate ' || co.collname, '')
                                                     || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
                                                     || CASE WHEN a.attgenerated <> '' OR a.attidentity <> '' THEN ' generated' ELSE '' END,
                                                     ', ' ORDER BY a.attnum)
                                   FROM pg_attribute a
                                   LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                                   LEFT JOIN pg_collation co ON co.oid = a.attcollation AND co.collname <> 'default'
                                   WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '')
                         || CASE WHEN c.relrowsecurity THEN ' row security' ELSE '' END
               END
        FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM ns) AND c.oid NOT IN (SELECT objid FROM members)
        UNION ALL
        SELECT 'constraint', r.relname || '.' || k.conname, pg_get_constraintdef(k.oid)
        FROM pg_constraint k JOIN pg_class r ON r.oid = k.conrelid
        WHERE r.relnamespace = (SELECT oid FROM ns) AND r.oid NOT IN (SELECT objid FROM members)
        UNION ALL
        SELECT 'trigger', r.relname || '.' || t.tgname, pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text
        FROM pg_trigger t JOIN pg_class r ON r.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND r.relnamespace = (SELECT oid FROM ns) AND r.oid NOT IN (SELECT objid FROM members)
        UNION ALL
        SELECT 'function', p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')',
               CASE WHEN p.prokind IN ('f', 'p') THEN pg_get_functiondef(p.oid) ELSE p.prokind::text END
        FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM ns) AND p.oid NOT IN (SELECT objid FROM members)
        UNION ALL
        SELECT 'rule', r.relname || '.' || ru.rulename, pg_get_ruledef(ru.oid)
        FROM pg_rewrite ru JOIN pg_class r ON r.oid = ru.ev_class
        WHERE r.relnamespace = (SELECT oid FROM ns) AND ru.rulename <> '_RETURN'
        UNION ALL
        SELECT 'policy', r.relname || '.' || po.polname,
               po.polcmd::text || ' ' || coalesce(pg_get_expr(po.polqual, po.polrelid), '') || ' | ' || coalesce(pg_get_expr(po.polwithcheck, po.polrelid), '')
        FROM pg_policy po JOIN pg_class r ON r.oid = po.polrelid WHERE r.relnamespace = (SELECT oid FROM ns)
        UNION ALL
        SELECT 'type', t.typname::text, t.typtype::text
        FROM pg_type t WHERE t.typnamespace = (SELECT oid FROM ns) AND t.typrelid = 0 AND t.typcategory <> 'A'
          AND t.oid NOT IN (SELECT objid FROM members)
        """
}
