import Foundation

/// Durations as people read and type them (a view adapter): `mm:ss` below an hour,
/// `hh:mm:ss` from an hour.
public enum DurationFormatter {
    public static let parseFailureMessage = "Enter a duration like 07:30"

    /// 450 → `07:30`, 5400 → `01:30:00`.
    ///
    /// Written digit by digit into the string's own storage: a list page formats two durations a
    /// row, and interpolation cost a fifth of building its rows.
    public static func string(from seconds: Int) -> String {
        let seconds = max(0, seconds)
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var count = 0
            func append(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func appendTwoDigits(_ value: Int) {
                append(UInt8(ascii: "0") + UInt8(value / 10))
                append(UInt8(ascii: "0") + UInt8(value % 10))
            }
            if hours > 0 {
                // Hours past 99 keep all their digits.
                let digits = Array(String(hours).utf8)
                if digits.count == 1 { append(UInt8(ascii: "0")) }
                for digit in digits { append(digit) }
                append(UInt8(ascii: ":"))
            }
            appendTwoDigits(minutes)
            append(UInt8(ascii: ":"))
            appendTwoDigits(rest)
            return count
        }
    }

    /// Seconds from `mm:ss`, `h:mm:ss` or whole minutes (`90` is 01:30:00); nil for anything else.
    /// Seconds, and minutes after hours, must be below 60.
    public static func seconds(from text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
            parts.allSatisfy({ (1...5).contains($0.count) && $0.allSatisfy { ("0"..."9").contains($0) } }),
            let numbers = Optional(parts.compactMap { Int($0) }), numbers.count == parts.count
        else { return nil }
        switch numbers.count {
        case 1:
            return numbers[0] * 60
        case 2:
            guard numbers[1] < 60 else { return nil }
            return numbers[0] * 60 + numbers[1]
        default:
            guard numbers[1] < 60, numbers[2] < 60 else { return nil }
            return numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
        }
    }

    /// A length of time in words, to the minute: 45 → `45 s`, 1500 → `25 min`,
    /// 3725 → `1 h 2 min`, 7200 → `2 h`.
    public static func words(from seconds: Int) -> String {
        let seconds = max(0, seconds)
        if seconds > 0 && seconds < 60 { return "\(seconds) s" }
        let (hours, minutes) = (seconds / 3600, seconds / 60 % 60)
        switch (hours, minutes) {
        case (0, _): return "\(minutes) min"
        case (_, 0): return "\(hours) h"
        default: return "\(hours) h \(minutes) min"
        }
    }

}
