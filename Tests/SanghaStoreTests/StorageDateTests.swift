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
