import Foundation
import GRDB
import SanghaCore
import Testing

@testable import SanghaStore

@Suite("Days as SQLite counts them")
struct StorageDateTests {
    @Test(
        "StoredDate writes a date to the character as GRDB's Date argument does, to the nearest millisecond, as GRDB rounds"
    )
    func storedDateAsGRDB() {
        var generator = SystemRandomNumberGenerator()
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.001), Date(timeIntervalSince1970: -1),
            Date(timeIntervalSince1970: 0.9999), Date(timeIntervalSince1970: 951_782_400.5),
            Date(timeIntervalSince1970: 253_402_300_799.999), Date(timeIntervalSince1970: -62_167_219_200),
            Date(timeIntervalSince1970: 1_795_000_000.123_456),
        ]
        // Halves of a millisecond, before 1970 and after: GRDB rounds them up.
        for milliseconds in [-1_410_000_000_000.5, -1_000.5, -0.5, 0.5, 1_795_000_000_000.5] {
            dates.append(Date(timeIntervalSince1970: milliseconds / 1000))
        }
        for _ in 0..<5000 {
            dates.append(
                Date(timeIntervalSince1970: Double.random(in: -4_000_000_000...6_000_000_000, using: &generator)))
            dates.append(Date(timeIntervalSinceReferenceDate: Double.random(in: 0...1e9, using: &generator)))
        }
        for date in dates {
            #expect(
                StoredDate(date).databaseValue == date.databaseValue,
                "\(date.timeIntervalSince1970): \(StoredDate.text(date)) against GRDB's \(date.databaseValue)")
        }
    }

    @Test(
        "StoredDate reads a date to the bit as GRDB's Date reads it, from a statement and from a copied row, and any other form GRDB reads as GRDB does"
    )
    func storedDateReadAsGRDB() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "1970-01-01 00:00:00.000", "1969-12-31 23:59:59.999", "2000-02-29 12:34:56.789", "9999-12-31 23:59:59.999",
            "1600-01-01 00:00:00.000", "2026-11-27 07:00:00.001",
            // Forms the fast reading leaves to GRDB: no milliseconds, a `T`, a zone, a day past
            // its month's end, a year before 1600.
            "2026-11-27 07:00:00", "2026-11-27T07:00:00.000", "2026-11-27 07:00:00.000Z", "2026-02-30 00:00:00.000",
            "1599-12-31 23:59:59.999",
            // Once one unit in the last place off GRDB's, when the fraction was added last.
            "2001-01-10 11:16:33.989",
        ]
        for _ in 0..<5000 {
            texts.append(
                StoredDate.text(
                    Date(timeIntervalSince1970: Double.random(in: -11_000_000_000...200_000_000_000, using: &generator))
                ))
        }
        let database = try DatabaseQueue()
        try database.read { db in
            for text in texts {
                let grdb = try Date.fetchOne(db, sql: "SELECT ?", arguments: [text])
                // A cursor's row reads the statement's column itself (`StatementColumnConvertible`).
                let cursor = try Row.fetchCursor(db, sql: "SELECT ?", arguments: [text])
                let fromStatement = try cursor.next().map { $0[dateIfAny: 0] } ?? nil
                let copied =
                    try Row.fetchAll(db, sql: "SELECT ?", arguments: [text]).first.map { $0[dateIfAny: 0] } ?? nil
                for read in [fromStatement, copied] {
                    #expect(
                        read?.timeIntervalSinceReferenceDate.bitPattern
                            == grdb?.timeIntervalSinceReferenceDate.bitPattern,
                        "\(text): \(String(describing: read)) against GRDB's \(String(describing: grdb))")
                }
            }
            // A number is a time since 1970, as GRDB reads it.
            #expect(try Row.fetchOne(db, sql: "SELECT 86400.5")?[date: 0] == Date(timeIntervalSince1970: 86400.5))
        }
    }

    @Test("sanghaDay of a date as GRDB stores it is the person's day DayClock counts, in any zone and day start")
    func sameAsDayClock() throws {
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
        let zones = ["UTC", "America/Santiago", "Asia/Kolkata", "Pacific/Chatham", "Europe/Berlin"]
        let database = try DatabaseQueue(configuration: SanghaDatabase.configuration)
        try database.read { db in
            for (index, date) in dates.enumerated() {
                let clock = DayClock(timeZone: TimeZone(identifier: zones[index % zones.count])!, startHour: index % 7)
                let sqlite = try Int.fetchOne(
                    db, sql: "SELECT sanghaDay(strftime('%s', ?), ?, ?)",
                    arguments: [date, clock.timeZone.identifier, clock.startHour])
                #expect(sqlite == clock.day(of: date).number, "\(date) \(clock)")
            }
        }
    }
}
