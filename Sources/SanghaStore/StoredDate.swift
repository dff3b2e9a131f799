import Foundation
import GRDB
import GRDBSQLite
import SanghaCore

/// A date as GRDB stores dates (`2026-11-27 07:00:00.000`, UTC, to the nearest millisecond),
/// written and read by arithmetic. GRDB's own `Date` argument goes through a `DateFormatter`
/// (ICU): a twentieth of a group's page under load, by `perf`; and it reads a date through
/// `Calendar`, 2.3 k instructions each (/admin reads twenty). The text is the same to the
/// character, and the date read the same to the bit (`StorageDateTests`), so it compares with
/// the stored dates exactly as the `Date` would. Any other form a column may hold (no
/// milliseconds, a zone, a number) is left to GRDB.
struct StoredDate: DatabaseValueConvertible, StatementColumnConvertible, Sendable {
    let date: Date

    init(_ date: Date) { self.date = date }

    var databaseValue: DatabaseValue { Self.text(date).databaseValue }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredDate? {
        if case .string(let text) = dbValue.storage {
            var text = text
            if let date = text.withUTF8({ Self.date(UnsafeRawBufferPointer($0)) }) { return StoredDate(date) }
        }
        return Date.fromDatabaseValue(dbValue).map(StoredDate.init)
    }

    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT,
            let text = sqlite3_column_text(sqliteStatement, index),
            let date = Self.date(
                UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index))))
        {
            self.date = date
        } else {
            guard let date = Date(sqliteStatement: sqliteStatement, index: index) else { return nil }
            self.date = date
        }
    }

    /// `date` as GRDB writes it; years outside 1600–9999 (before them its formatter counts in the
    /// Julian calendar) are left to GRDB.
    static func text(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else {
            return String.fromDatabaseValue(date.databaseValue) ?? ""
        }
        let all = Int(milliseconds)
        let days = all >= 0 ? all / 86_400_000 : (all - 86_399_999) / 86_400_000
        let (year, month, day) = LocalDay(days).date
        guard (1600...9999).contains(year) else { return String.fromDatabaseValue(date.databaseValue) ?? "" }
        let inDay = all - days * 86_400_000
        return String(unsafeUninitializedCapacity: 23) { text in
            var at = 0
            func append(_ value: Int, digits: Int, then separator: UInt8?) {
                var value = value
                for place in stride(from: at + digits - 1, through: at, by: -1) {
                    text[place] = UInt8(48 + value % 10)
                    value /= 10
                }
                at += digits
                if let separator {
                    text[at] = separator
                    at += 1
                }
            }
            append(year, digits: 4, then: UInt8(ascii: "-"))
            append(month, digits: 2, then: UInt8(ascii: "-"))
            append(day, digits: 2, then: UInt8(ascii: " "))
            append(inDay / 3_600_000, digits: 2, then: UInt8(ascii: ":"))
            append(inDay / 60_000 % 60, digits: 2, then: UInt8(ascii: ":"))
            append(inDay / 1000 % 60, digits: 2, then: UInt8(ascii: "."))
            append(inDay % 1000, digits: 3, then: nil)
            return at
        }
    }

    /// The date `text` (UTF-8) writes as `text(_:)` writes it, years 1600–9999; nil for any
    /// other text.
    static func date(_ text: UnsafeRawBufferPointer) -> Date? {
        guard text.count == 23 else { return nil }
        func number(_ from: Int, _ digits: Int, then separator: UInt8?) -> Int? {
            var value = 0
            for place in from..<from + digits {
                let digit = Int(text[place]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            if let separator, text[from + digits] != separator { return nil }
            return value
        }
        guard let year = number(0, 4, then: UInt8(ascii: "-")), (1600...9999).contains(year),
            let month = number(5, 2, then: UInt8(ascii: "-")), (1...12).contains(month),
            let day = number(8, 2, then: UInt8(ascii: " ")), (1...31).contains(day),
            let hour = number(11, 2, then: UInt8(ascii: ":")), hour < 24,
            let minute = number(14, 2, then: UInt8(ascii: ":")), minute < 60,
            let second = number(17, 2, then: UInt8(ascii: ".")), second < 60,
            let millisecond = number(20, 3, then: nil)
        else { return nil }
        let localDay = LocalDay(year: year, month: month, day: day)
        // A day past its month's end (`02-30`) is left to GRDB, which rolls it over.
        guard localDay.date == (year, month, day) else { return nil }
        // Counted from 2001 as Foundation's calendar counts (the time of day with its fraction,
        // then the day's start added), so the date is GRDB's to the bit: adding the fraction
        // last was one unit in the last place off for some dates (2001-01-10 11:16:33.989).
        let time = Double(hour * 3600 + minute * 60 + second) + Double(millisecond) / 1000
        return Date(timeIntervalSinceReferenceDate: Double((localDay.number - 11_323) * 86_400) + time)
    }
}

extension Row {
    /// The date in column `index`, read as `StoredDate` reads it.
    subscript(date index: Int) -> Date { (self[index] as StoredDate).date }

    /// The date in column `index`, or nil for NULL.
    subscript(dateIfAny index: Int) -> Date? { (self[index] as StoredDate?)?.date }
}
