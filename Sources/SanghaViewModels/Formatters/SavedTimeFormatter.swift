import Foundation
import SanghaCore

/// When something was saved, as a person reads it: `21 Nov 2026 at 07:04` (a view adapter).
public enum SavedTimeFormatter {
    public static func string(from date: Date, timeZone: TimeZone) -> String {
        let parts = Calendar.gregorian(in: timeZone).dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return "\(parts.day ?? 1) \(CalendarText.shortMonth(parts)) \(parts.year ?? 1970) at \(time)"
    }
}
