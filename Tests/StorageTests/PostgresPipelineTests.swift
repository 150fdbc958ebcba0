import Foundation
import Storage
import Testing
@testable import StoragePostgres

@Suite("PostgreSQL pipelines")
struct PostgresPipelineTests {
    @Test("a pipeline gives every statement's result in order, parameters bound and prepared statements reused")
    func results() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let db = try PostgresConnection(location: database.location, settings: [])
        try db.execute("CREATE TABLE t (n integer PRIMARY KEY, s text)")
        for round in 0..<2 {
            let out = try db.pipeline([
                PipelineStatement("BEGIN"),
                PipelineStatement("INSERT INTO t SELECT n::integer, s FROM unnest($1::text[], $2::text[]) AS u (n, s)",
                                  [.textArray(["\(round * 10 + 1)", "\(round * 10 + 2)"]), .textArray(["a \"quoted\" \\ one", nil])]),
                PipelineStatement("SELECT count(*) FROM t WHERE n > $1", [.int(Int64(round * 10))]),
                PipelineStatement("COMMIT"),
            ])
            #expect(out.count == 4)
            #expect(out[2].int(0, 0) == 2)
            #expect(!db.isInTransaction)
        }
        // Two rounds, two statements with parameters: each prepared once on the connection.
        #expect(try db.query("SELECT count(*) FROM pg_prepared_statements", prepare: false).int(0, 0) == 2)
        let rows = try db.query("SELECT s FROM t WHERE n = 11")
        #expect(rows.text(0, 0) == "a \"quoted\" \\ one")
        #expect(try db.query("SELECT count(*) FROM t WHERE s IS NULL").int(0, 0) == 2)
    }

    @Test("a failing statement's error is thrown, the statements after it do not run, and the connection is usable after a rollback")
    func failure() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let db = try PostgresConnection(location: database.location, settings: [])
        try db.execute("CREATE TABLE t (n integer PRIMARY KEY)")
        do {
            _ = try db.pipeline([
                PipelineStatement("BEGIN"),
                PipelineStatement("INSERT INTO t VALUES ($1::integer)", [.int(1)]),
                PipelineStatement("INSERT INTO t VALUES ($1::integer)", [.int(1)]),  // the primary key again
                PipelineStatement("INSERT INTO t VALUES ($1::integer)", [.int(2)]),
                PipelineStatement("COMMIT"),
            ])
            Issue.record("a duplicate key went through")
        } catch {
            #expect(error.sqlstate == "23505")
        }
        // The transaction failed at the duplicate and was never committed.
        #expect(db.isInTransaction)
        try db.execute("ROLLBACK")
        #expect(try db.query("SELECT count(*) FROM t").int(0, 0) == 0)
        #expect(try db.pipeline([PipelineStatement("SELECT $1::integer + 1", [.int(41)])])[0].int(0, 0) == 42)
    }
}
