import Foundation
import SanghaCore

/// A file of sessions as `POST /history/import` reads it: the export's CSV or JSON (the kind is
/// told by its first character, `[` for JSON). Each session that breaks a rule is a problem of
/// its line (CSV) or entry (JSON); the file is imported only without any.
public struct PracticeLogImport: Sendable, Equatable {
    public var sessions: [SittingSession]
    /// "Line 4: the seconds must be a whole number from 1 to 259200."
    public var problems: [String]

    /// The most sessions one file may hold.
    public static let sessionLimit = 100_000
    /// The largest file: 5 MiB (a decade of daily sits is about 1 MiB). Larger: 413.
    public static let uploadLimit = 5 * 1024 * 1024
    /// The largest import form: the file, or the preview's text again in base64 (a third more).
    public static let formLimit = uploadLimit / 3 * 4 + 64 * 1024
    /// The only address a form with a file is posted to.
    public static let path = "/history/import"

    public init(sessions: [SittingSession], problems: [String]) {
        (self.sessions, self.problems) = (sessions, problems)
    }

    /// `text` read as of `now` (a session may not begin after it).
    public static func read(_ text: String, now: Date) -> PracticeLogImport {
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.first == "[" { return readJSON(String(trimmed), now: now) }
        return readCSV(String(trimmed), now: now)
    }

    static func readJSON(_ text: String, now: Date) -> PracticeLogImport {
        guard let entries = try? JSONDecoder().decode([PracticeLogExport.Session].self, from: Data(text.utf8)) else {
            return PracticeLogImport(
                sessions: [],
                problems: [
                    "The file is not a JSON array of sessions with startedAt, seconds, profile and outcome."
                ])
        }
        var result = PracticeLogImport(sessions: [], problems: [])
        for (index, entry) in entries.enumerated() {
            result.add(
                fields: [
                    entry.startedAt, String(entry.seconds), entry.profile, entry.outcome, entry.group ?? "",
                    entry.note ?? "",
                ], place: "Entry \(index + 1)", now: now)
        }
        return result
    }

    static func readCSV(_ text: String, now: Date) -> PracticeLogImport {
        let records = CSV.records(text)
        let header = PracticeLogExport.csvHeader.trimmingCharacters(in: .newlines).split(separator: ",").map(
            String.init)
        guard let first = records.first, first.fields.map({ $0.lowercased() }) == header else {
            return PracticeLogImport(
                sessions: [], problems: ["Line 1: the header must be \(header.joined(separator: ","))."])
        }
        var result = PracticeLogImport(sessions: [], problems: [])
        for record in records.dropFirst() where record.fields != [""] {
            if let problem = record.problem {
                result.problems.append("Line \(record.line): \(problem)")
                continue
            }
            result.add(fields: record.fields.map(PracticeLogExport.plainField), place: "Line \(record.line)", now: now)
        }
        return result
    }

    /// The session of one line or entry, or its problem.
    private mutating func add(fields: [String], place: String, now: Date) {
        guard sessions.count + problems.count < Self.sessionLimit else {
            if problems.last != Self.tooManyMessage { problems.append(Self.tooManyMessage) }
            return
        }
        guard fields.count == 6 else {
            problems.append("\(place): 6 fields are expected, not \(fields.count).")
            return
        }
        guard let startedAt = Self.date(fields[0]) else {
            problems.append("\(place): the start must be a date and time such as 2026-11-24T06:30:00-03:00.")
            return
        }
        guard let seconds = Int(fields[1]), (1...Self.longest).contains(seconds) else {
            problems.append("\(place): the seconds must be a whole number from 1 to \(Self.longest).")
            return
        }
        let name = fields[2].trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = Profile.validateName(name) {
            problems.append("\(place): the profile: \(problem)")
            return
        }
        guard fields[3] == "completed" || fields[3] == "stopped" else {
            problems.append("\(place): the outcome must be completed or stopped.")
            return
        }
        if startedAt > now.addingTimeInterval(SittingSession.clockSkewAllowance) {
            problems.append("\(place): the sit begins in the future.")
            return
        }
        if !fields[4].isEmpty, let problem = SittingGroup.validateName(fields[4]) {
            problems.append("\(place): the group: \(problem)")
            return
        }
        if let problem = SittingSession.noteRefusal(fields[5]) {
            problems.append("\(place): \(problem)")
            return
        }
        sessions.append(
            SittingSession(
                profileID: nil, profileName: name, startedAt: startedAt, seconds: seconds,
                completed: fields[3] == "completed", groupName: fields[4].isEmpty ? nil : fields[4],
                note: fields[5].isEmpty ? nil : fields[5]))
    }

    /// The longest session a file may hold: 72 hours, as the timer records.
    static let longest = 86_400 * 3
    static let tooManyMessage = "The file has more than 100,000 sessions: import it in parts."

    /// A start as the export writes it (ISO 8601 with its offset), to the whole second: the
    /// export writes whole seconds, so a start read back is the one written.
    static func date(_ text: String) -> Date? {
        SittingSessionInput.date(from: text).map {
            Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down))
        }
    }
}

/// Comma-separated values as RFC 4180 has them: fields quoted when they hold a comma, a quote
/// (doubled) or a line break; lines ending in CRLF or LF.
enum CSV {
    struct Record: Equatable {
        /// The line it begins on, from 1.
        var line: Int
        var fields: [String]
        /// Why its fields cannot be trusted (a quote left open, text after a closing quote).
        var problem: String? = nil
    }

    /// The records of `text`, each with the line it begins on.
    static func records(_ text: String) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var start = 1
        var characters = text.makeIterator()
        var pending: Character?
        var problem: String?
        func next() -> Character? {
            if let character = pending {
                pending = nil
                return character
            }
            return characters.next()
        }
        while let character = next() {
            if quoted {
                if character == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.append("\"")
                        } else {
                            quoted = false
                            pending = following
                            if following != ",", !following.isNewline {
                                problem = problem ?? "a quoted field has text after its closing quote."
                            }
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    if character.isNewline { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty:
                quoted = true
            case ",":
                fields.append(field)
                field = ""
            case "\r\n", "\n", "\r":
                fields.append(field)
                records.append(Record(line: start, fields: fields, problem: problem))
                (fields, field, problem) = ([], "", nil)
                line += 1
                start = line
            default:
                field.append(character)
            }
        }
        if quoted { problem = "a quoted field is not closed (a quote is missing)." }
        if !field.isEmpty || !fields.isEmpty || quoted {
            fields.append(field)
            records.append(Record(line: start, fields: fields, problem: problem))
        }
        return records
    }
}

/// `/history/import`: "File" and "Preview"; after a preview, what the file holds ("N sessions to
/// add, M already there, K lines with problems", each problem with its line) and, when it has
/// no problem and something to add, "Import" (the file's text goes with it, so nothing is kept
/// on the server between the two).
public struct PracticeLogImportViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading = "Import sessions"
    public let intro =
        "A file this site exported (CSV or JSON) adds its sessions to your history. Sessions already there are not added twice."
    public let actionURL: String = PracticeLogImport.path
    public let fileLabel = "File"
    public let previewLabel = "Preview"
    /// "3 sessions to add, 1 already there, 2 lines with problems"; nil before a preview.
    public let summary: String?
    public let problems: [String]
    public let hasProblems: Bool
    /// The file's text in base64, sent again with "Import" (a hidden field, which keeps every
    /// byte, where a text area would not); nil when there is nothing to import.
    public let content: String?
    public let importLabel = "Import"
    public let alert: AlertViewModel?

    public init(
        context: PageContext, read: PracticeLogImport? = nil, count: SittingSession.ImportCount? = nil,
        content: String? = nil, alert: AlertViewModel? = nil
    ) {
        layout = LayoutViewModel(title: "Import sessions", section: .history, context: context)
        if let read, let count {
            let lines = read.problems.count
            summary =
                "\(CountText.of(count.added, "session")) to add, \(count.existing) already there, "
                + "\(CountText.of(lines, "line")) with problems"
        } else {
            summary = nil
        }
        problems = read?.problems ?? []
        hasProblems = !problems.isEmpty
        self.content =
            read != nil && problems.isEmpty && (count?.added ?? 0) > 0
            ? content.map { Data($0.utf8).base64EncodedString() } : nil
        self.alert = alert
    }

    /// What `POST /history/import` does with `text` (the file's, or the preview's again when
    /// `commit`): a preview (200; 422 when a line has a problem, and nothing is imported), or,
    /// committed, every new session added in one transaction and 303 to the history.
    public static func submit(
        _ text: String?, commit: Bool, sessions: any SittingSessionRepository, context: PageContext
    ) async -> Outcome {
        let context = context.withoutFlash
        guard let text, !text.isEmpty else {
            return .invalid(
                PracticeLogImportViewModel(
                    context: context,
                    alert: AlertViewModel(title: "Nothing to read.", message: "Choose a file, then Preview.")))
        }
        let read = PracticeLogImport.read(text, now: context.now)
        do {
            let count = try await sessions.importSessions(read.sessions, commit: commit && read.problems.isEmpty)
            let page = PracticeLogImportViewModel(context: context, read: read, count: count, content: text)
            if !read.problems.isEmpty { return .invalid(page) }
            guard commit else { return .preview(page) }
            let message =
                count.added == 0
                ? "Nothing was imported: every session is already in your history."
                : "Imported \(CountText.of(count.added, "session"))\(count.existing > 0 ? "; \(count.existing) were already there" : "")."
            return .imported(Redirect(to: "/history", flash: .success(message)))
        } catch {
            return .failed(
                PracticeLogImportViewModel(
                    context: context,
                    alert: AlertViewModel(
                        title: "Nothing was imported.",
                        message: StorageMessage.text(for: error, otherwise: "Saving failed. Please try again."))))
        }
    }

    /// What a post of the import's form comes to.
    public enum Outcome: Sendable, Equatable {
        /// What the file holds, ready to import (200).
        case preview(PracticeLogImportViewModel)
        /// No file, or a line with a problem: nothing imported (422).
        case invalid(PracticeLogImportViewModel)
        /// Imported: to the history, with how many.
        case imported(Redirect)
        /// The storage failed: nothing imported (503).
        case failed(PracticeLogImportViewModel)
    }
}
