import Foundation
import PostgresNIO
import SanghaCore

/// A statement PostgreSQL prepares once per connection and keeps the plan of: parsed and planned
/// on every call, each of a group's page's questions cost 0.1–0.7 ms of the server's time before
/// it ran. Its values are bound in order, as the types `bindingDataTypes` names (so an `Int`
/// is compared as `int8` whatever the column).
protocol PreparedRead: PostgresPreparedStatement {
    var values: [any PostgresNonThrowingEncodable & Sendable] { get }
}

extension PreparedRead {
    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }
}

extension PostgresStore {
    /// Every row `statement` answers, in order.
    static func all<Statement: PreparedRead>(
        _ statement: Statement, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
        return rows
    }
}
