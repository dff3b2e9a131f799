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

extension PostgresStore {
    /// `array_agg` of each of `columns`, each ordered by `order`, so that the arrays line up: a
    /// list in one column a field, for a page read in one statement.
    static func arrays(_ columns: [String], _ order: String) -> String {
        columns.map { "array_agg(\($0) ORDER BY \(order))" }.joined(separator: ", ")
    }
}

/// A row's columns, read one after another.
struct Columns {
    private let row: PostgresRandomAccessRow
    private var index = 0

    init(_ row: PostgresRow) { self.row = row.makeRandomAccess() }

    mutating func next<Value: PostgresDecodable>(_: Value.Type = Value.self) throws -> Value {
        defer { index += 1 }
        return try row[index].decode(Value.self)
    }

    /// An array column; NULL (an aggregate over no rows) is empty.
    mutating func array<Element>(_: Element.Type) throws -> [Element]
    where Element: PostgresArrayDecodable, Element == Element._DecodableType {
        try next([Element]?.self) ?? []
    }

    /// The indices of arrays that line up, one element of each a row; a statement whose arrays
    /// do not is refused, not trusted.
    static func rows(_ first: some Collection, _ others: any Collection...) throws -> Range<Int> {
        guard others.allSatisfy({ $0.count == first.count }) else {
            throw PostgresDatabaseError.failed("The page's arrays do not line up")
        }
        return 0..<first.count
    }
}
