import Foundation

/// A file of sessions as the history's import reads it: the export's CSV or JSON (the kind is
/// told by its first character, `[` for JSON). Each session that breaks a rule is a problem of
/// its line (CSV) or entry (JSON), said in the reader's language; the file is imported only
/// without any.
public struct PracticeLogImport: Sendable, Equatable {
    public var sessions: [SittingSession]
    /// "Line 4: the seconds must be a whole number from 1 to 259200."
    public var problems: [String]

    /// The most sessions one file may hold.
    public static let sessionLimit = 100_000
    /// The largest file: 5 MiB (a decade of daily sits is about 1 MiB). Larger: 413.
    public static let uploadLimit = 5 * 1024 * 1024
    /// The largest import form: the file and the form's few fields ("Import" sends only the
    /// token of the file kept since its preview).
    public static let formLimit = uploadLimit + 64 * 1024

    public init(sessions: [SittingSession], problems: [String]) {
        (self.sessions, self.problems) = (sessions, problems)
    }

    /// `text` read as of `now` (a session may not begin after it), its problems in `words`'
    /// language.
    public static func read(_ text: String, now: Date, words: Words) -> PracticeLogImport {
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.first == "[" { return readJSON(String(trimmed), now: now, words: words) }
        return readCSV(String(trimmed), now: now, words: words)
    }

    static func readJSON(_ text: String, now: Date, words: Words) -> PracticeLogImport {
        guard let entries = try? JSONDecoder().decode([PracticeLogExport.Session].self, from: Data(text.utf8)) else {
            return PracticeLogImport(sessions: [], problems: [words.historyImportNotJson])
        }
        var result = PracticeLogImport(sessions: [], problems: [])
        for (index, entry) in entries.enumerated() {
            result.add(
                fields: [
                    entry.startedAt, String(entry.seconds), entry.profile, entry.outcome, entry.group ?? "",
                    entry.note ?? "",
                ], place: { words.historyImportEntry(entry: words.number(index + 1), problem: $0) }, now: now,
                words: words)
        }
        return result
    }

    static func readCSV(_ text: String, now: Date, words: Words) -> PracticeLogImport {
        let records = CSV.records(text)
        let header = PracticeLogExport.csvHeader.trimmingCharacters(in: .newlines).split(separator: ",").map(
            String.init)
        guard let first = records.first, first.fields.map({ $0.lowercased() }) == header else {
            let problem = words.historyImportHeader(header: header.joined(separator: ","))
            return PracticeLogImport(
                sessions: [], problems: [words.historyImportLine(line: words.number(1), problem: problem)])
        }
        var result = PracticeLogImport(sessions: [], problems: [])
        for record in records.dropFirst() where record.fields != [""] {
            let place = { words.historyImportLine(line: words.number(record.line), problem: $0) }
            if let problem = record.problem {
                result.problems.append(
                    place(problem == .unclosedQuote ? words.historyImportQuoteOpen : words.historyImportAfterQuote))
                continue
            }
            result.add(fields: record.fields.map(PracticeLogExport.plainField), place: place, now: now, words: words)
        }
        return result
    }

    /// The session of one line or entry, or its problem, said by `place` ("Line 4: …").
    private mutating func add(fields: [String], place: (String) -> String, now: Date, words: Words) {
        guard sessions.count + problems.count < Self.sessionLimit else {
            let tooMany = words.historyImportTooMany
            if problems.last != tooMany { problems.append(tooMany) }
            return
        }
        guard fields.count == 6 else {
            problems.append(
                place(words.historyImportFieldCount(expected: words.number(6), found: words.number(fields.count))))
            return
        }
        guard let startedAt = Self.date(fields[0]) else {
            problems.append(place(words.historyImportStart))
            return
        }
        guard let seconds = Int(fields[1]), (1...Self.longest).contains(seconds) else {
            problems.append(
                place(words.historyImportSeconds(least: words.number(1), most: words.number(Self.longest))))
            return
        }
        let name = fields[2].trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = Profile.validateName(name, words: words) {
            problems.append(place(words.historyImportProfile(problem: problem)))
            return
        }
        guard fields[3] == "completed" || fields[3] == "stopped" else {
            problems.append(place(words.historyImportOutcome))
            return
        }
        if startedAt > now.addingTimeInterval(SittingSession.clockSkewAllowance) {
            problems.append(place(words.historyImportFuture))
            return
        }
        if !fields[4].isEmpty,
            let problem = SittingGroup.validateName(fields[4], words: words)
        {
            problems.append(place(words.historyImportGroup(problem: problem)))
            return
        }
        if let problem = SittingSession.noteRefusal(fields[5], words: words) {
            problems.append(place(problem))
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

    /// A start as the export writes it (ISO 8601 with its offset), to the whole second.
    static func date(_ text: String) -> Date? { SittingSession.date(iso8601: text) }
}

/// Comma-separated values as RFC 4180 has them: fields quoted when they hold a comma, a quote
/// (doubled) or a line break; lines ending in CRLF or LF.
enum CSV {
    struct Record: Equatable {
        /// The line it begins on, from 1.
        var line: Int
        var fields: [String]
        /// Why its fields cannot be trusted.
        var problem: Problem? = nil
    }

    enum Problem: Equatable {
        /// A quoted field is not closed (a quote is missing).
        case unclosedQuote
        /// A quoted field has text after its closing quote.
        case textAfterQuote
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
        var problem: Problem?
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
                                problem = problem ?? .textAfterQuote
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
        if quoted { problem = .unclosedQuote }
        if !field.isEmpty || !fields.isEmpty || quoted {
            fields.append(field)
            records.append(Record(line: start, fields: fields, problem: problem))
        }
        return records
    }
}
