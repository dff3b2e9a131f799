import Foundation

/// The practice log as files a person takes with them (`/history/export.csv`,
/// `/history/export.json`, `/profiles/export.json`): every session with its start in ISO 8601
/// with its offset in the time zone the pages show, its seconds, its profile's name, whether it
/// was completed or stopped, its group and its note. UTF-8; the CSV has a header row and
/// quotes a field as RFC 4180 says (lines end in CRLF).
public enum PracticeLogExport {
    /// Sessions read from the storage at a time: the export holds one page, whatever the log's
    /// length.
    public static let pageSize = 500

    public static let csvHeader = "started_at,seconds,profile,outcome,group,note\r\n"

    /// One session as a CSV line, CRLF included.
    public static func csvLine(_ session: SittingSession, timeZone: TimeZone) -> String {
        [
            startText(session.startedAt, timeZone: timeZone), String(session.seconds), safeField(session.profileName),
            outcome(session), safeField(session.groupName ?? ""), safeField(session.note ?? ""),
        ].map(csvField).joined(separator: ",") + "\r\n"
    }

    /// Characters a spreadsheet takes a field beginning with for a formula (a host's group name
    /// `=HYPERLINK(…)` in a member's file): such a field is written after a `'`, which the import
    /// takes off again.
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r", "'"]

    static func safeField(_ text: String) -> String {
        guard let first = text.first, formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    /// A field as it was before `safeField`.
    static func plainField(_ text: String) -> String {
        guard text.first == "'", let second = text.dropFirst().first, formulaStarts.contains(second) else {
            return text
        }
        return String(text.dropFirst())
    }

    /// A field quoted when it holds a comma, a quote or a line break (its quotes doubled).
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The JSON file: an array of sessions, one a line, written as `jsonStart`, then each
    /// session's `jsonObject` after `jsonSeparator` (but the first), then `jsonEnd`.
    public static let jsonStart = "[\n"
    public static let jsonSeparator = ",\n"
    public static let jsonEnd = "\n]\n"

    /// A session as the JSON file writes it.
    struct Session: Codable, Equatable {
        var startedAt: String
        var seconds: Int
        var profile: String
        var outcome: String
        var group: String?
        var note: String?
    }

    /// One session as a JSON object on one line (keys in a fixed order).
    public static func jsonObject(_ session: SittingSession, timeZone: TimeZone) -> String {
        let value = Session(
            startedAt: startText(session.startedAt, timeZone: timeZone), seconds: session.seconds,
            profile: session.profileName, outcome: outcome(session), group: session.groupName, note: session.note)
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// A profile as `/profiles/export.json` writes it: its name and segments.
    public static func jsonObject(_ profile: Profile) -> String {
        struct Exported: Encodable {
            var name: String
            var segments: [Segment]
        }
        let value = Exported(name: profile.name, segments: profile.segments)
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `completed` or `stopped`.
    static func outcome(_ session: SittingSession) -> String { session.completed ? "completed" : "stopped" }

    /// `2026-11-24T06:30:00-03:00` (`Z` in UTC).
    static func startText(_ date: Date, timeZone: TimeZone) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: timeZone))
    }

    /// `sangha-history-2026-11-24.csv`: the name a download is saved under.
    public static func fileName(_ kind: String, extension: String, now: Date, timeZone: TimeZone) -> String {
        let day = now.formatted(Date.ISO8601FormatStyle(timeZone: timeZone).year().month().day())
        return "sangha-\(kind)-\(day).\(`extension`)"
    }
}
