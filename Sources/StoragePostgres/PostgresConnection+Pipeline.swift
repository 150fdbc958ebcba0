import CLibPQ
import Storage

/// One statement of a pipeline: SQL and its parameters.
struct PipelineStatement {
    let sql: String
    let parameters: [PostgresValue]

    init(_ sql: String, _ parameters: [PostgresValue] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}

extension PostgresConnection {
    /// Whether a transaction is open on the connection (healthy or failed).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(conn)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Sends `statements` together and waits once for all their results (libpq's pipeline mode):
    /// one round trip instead of one per statement, which matters most while a lock is held.
    /// Statements with parameters are prepared first (a round trip each, once per connection).
    /// The first failure is thrown; the statements after it did not run (an open transaction is
    /// then failed, and the caller rolls it back).
    func pipeline(_ statements: [PipelineStatement]) throws(PostgresError) -> [PostgresResult] {
        var names: [String?] = []
        for statement in statements {
            names.append(statement.parameters.isEmpty ? nil : try statementName(for: statement.sql))
        }
        guard PQenterPipelineMode(conn) == 1 else { throw lostOrFailed("pipeline") }
        // Leaving pipeline mode fails while results are unread (a send or read that failed part
        // way): such a connection is never used again.
        defer { if PQexitPipelineMode(conn) != 1 { abandon() } }
        for (statement, name) in zip(statements, names) {
            let texts = statement.parameters.map(\.text)
            let sent = withOptionalCStrings(texts) { values in
                if let name { return PQsendQueryPrepared(conn, name, Int32(texts.count), values, nil, nil, 0) }
                return PQsendQueryParams(conn, statement.sql, 0, nil, nil, nil, nil, 0)
            }
            guard sent == 1 else { throw lostOrFailed("pipeline") }
        }
        guard PQpipelineSync(conn) == 1 else { throw lostOrFailed("pipeline") }

        // Each statement's result is followed by a null; the sync's result ends the pipeline.
        var results: [PostgresResult] = []
        var failure: PostgresError?
        var statement = 0
        var answered = false
        while true {
            guard let result = PQgetResult(conn) else {
                if isBroken { throw .connectionLost(Self.firstLine(PQerrorMessage(conn))) }
                if answered { statement += 1 }
                answered = false
                guard statement <= statements.count else { break }
                continue
            }
            let status = PQresultStatus(result)
            if status == PGRES_PIPELINE_SYNC {
                PQclear(result)
                break
            }
            answered = true
            if status == PGRES_PIPELINE_ABORTED {
                PQclear(result)
                continue
            }
            do {
                let value = try check(result, operation: "query")
                if statement < statements.count, results.count == statement { results.append(value) }
            } catch {
                if isBroken { throw error }
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        guard results.count == statements.count else { throw .server(sqlstate: "XX000", message: "a pipeline gave \(results.count) of \(statements.count) results") }
        return results
    }

    private func lostOrFailed(_ operation: String) -> PostgresError {
        let message = Self.firstLine(PQerrorMessage(conn))
        return isBroken ? .connectionLost(message) : .server(sqlstate: "XX000", message: "\(operation) failed: \(message)")
    }
}
