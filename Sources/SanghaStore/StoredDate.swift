import Foundation
import GRDB
import SanghaCore

/// A date bound to a statement as GRDB stores dates (`2026-11-27 07:00:00.000`, UTC, to the
/// nearest millisecond), written by arithmetic. GRDB's own `Date` argument goes through a
/// `DateFormatter` (ICU): a twentieth of a group's page under load, by `perf`. The text is the
/// same to the character, so it compares with the stored dates exactly as the `Date` would.
struct StoredDate: DatabaseValueConvertible, Sendable {
    let date: Date

    init(_ date: Date) { self.date = date }

    var databaseValue: DatabaseValue { Self.text(date).databaseValue }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredDate? {
        Date.fromDatabaseValue(dbValue).map(StoredDate.init)
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
        var text = ""
        text.reserveCapacity(23)
        func append(_ value: Int, digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            var value = value
            while divisor > 0 {
                text.unicodeScalars.append(Unicode.Scalar(UInt8(48 + value / divisor)))
                value %= divisor
                divisor /= 10
            }
        }
        append(year, digits: 4)
        text += "-"
        append(month, digits: 2)
        text += "-"
        append(day, digits: 2)
        text += " "
        append(inDay / 3_600_000, digits: 2)
        text += ":"
        append(inDay / 60_000 % 60, digits: 2)
        text += ":"
        append(inDay / 1000 % 60, digits: 2)
        text += "."
        append(inDay % 1000, digits: 3)
        return text
    }
}
