import Foundation
import GRDB
import Testing

@testable import SanghaStore

@Suite("Dates as SQLite stores them")
struct StorageDateTests {
    @Test("SQLite's strftime of the seconds is GRDB's own text for every kind of instant a day boundary is")
    func sameAsGRDB() throws {
        var generator = SystemRandomNumberGenerator()
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 951_782_400),
            Date(timeIntervalSince1970: 4_107_542_399), Date(timeIntervalSince1970: -2_208_988_800),
            Date(timeIntervalSince1970: 1_795_000_000.5),
        ]
        for _ in 0..<2000 {
            dates.append(
                Date(timeIntervalSince1970: Double(Int64.random(in: -4_000_000_000...6_000_000_000, using: &generator)))
            )
        }
        let database = try DatabaseQueue()
        try database.read { db in
            for date in dates {
                let sqlite = try String.fetchOne(
                    db, sql: "SELECT \(SittingSessionStore.storedDate)", arguments: [date.timeIntervalSince1970])
                #expect(sqlite == String.fromDatabaseValue(date.databaseValue), "\(date)")
            }
        }
    }
}
