import Foundation
import SanghaCore

/// The top of the person's own page: the initials as an avatar, the name, and since when they
/// sit and how often (`Sitting since November 2026 · 12 sessions`).
public struct MeHeaderViewModel: Sendable, Equatable, Encodable {
    /// Decorative: the name beside it says the same.
    public let initials: String
    public let name: String
    public let sinceText: String

    /// `sessionCount` nil: the sessions could not be counted, and the line says only since when.
    public init(person: Person, sessionCount: Int?, timeZone: TimeZone, words: Words) {
        initials = person.initials
        name = words.isolated(person.name)
        let month =
            WordsDates.monthAndYear(person.createdAt, timeZone: timeZone, words: words)
            ?? Self.monthAndYear(person.createdAt, timeZone: timeZone)
        let since = words.meSittingSince(month: month)
        sinceText = sessionCount.map { "\(since) · \(words.meSessions($0))" } ?? since
    }

    /// `November 2026`, in `timeZone`.
    static func monthAndYear(_ date: Date, timeZone: TimeZone) -> String {
        let parts = Calendar.gregorian(in: timeZone).dateComponents([.year, .month], from: date)
        return "\(CalendarText.months[((parts.month ?? 1) - 1) % 12]) \(parts.year ?? 1970)"
    }

}
