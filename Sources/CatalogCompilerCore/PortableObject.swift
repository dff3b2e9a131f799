import Foundation
import TemplateCompilerCore

/// A GNU gettext catalog (`.po`, or the template `.pot`), as translators' tools write it: the
/// header (its `Language` and `Plural-Forms`), then each message with its comments, its context
/// (Sangha's stable key), its English text, and its translation or plural translations.
public struct PortableObject: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// `msgctxt`: the message's stable key (`settings.saved`).
        public var key: String
        /// `msgid`: the English text (the template's source).
        public var english: String
        /// `msgid_plural`: the English plural, for a message that counts.
        public var englishPlural: String?
        /// `msgstr`, or `msgstr[0]`, `msgstr[1]`…: the translation's forms, in the language's
        /// plural order (one form for a message that does not count).
        public var translations: [String]
        /// `#.` lines: what the code says to the translator.
        public var comments: [String]
        /// `#,` flags (`fuzzy`: a translation a tool guessed, not yet checked by a person).
        public var flags: [String]
        /// The line the entry begins at, for messages.
        public var line: Int

        public var isPlural: Bool { englishPlural != nil }
        public var isFuzzy: Bool { flags.contains("fuzzy") }
    }

    /// The header's fields (`Language: de`, `Plural-Forms: nplurals=2; plural=(n != 1);`).
    public var header: [String: String]
    public var entries: [Entry]

    /// `nplurals` of the header's `Plural-Forms`, if it has one.
    public var pluralCount: Int? {
        guard let forms = header["Plural-Forms"], let range = forms.range(of: "nplurals=") else { return nil }
        return Int(forms[range.upperBound...].prefix { $0.isNumber })
    }

    /// Reads the text of a `.po` or `.pot` file named `file` (for messages).
    public init(text: String, file: String) throws {
        var entries: [Entry] = []
        var header: [String: String] = [:]
        var current = RawEntry()
        var last: String?  // the keyword the next continuation line belongs to
        var lineNumber = 0

        func finish() throws {
            defer { current = RawEntry() }
            guard current.hasMessage else { return }
            if current.msgid.isEmpty, current.msgctxt == nil {
                for line in current.msgstr[0, default: ""].split(separator: "\n") {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    header[String(line[..<colon])] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                return
            }
            guard let key = current.msgctxt else {
                throw CatalogError(file: file, line: current.line, message: "A message without msgctxt (its key).")
            }
            let count = (current.msgstr.keys.max() ?? 0) + 1
            entries.append(
                Entry(
                    key: key, english: current.msgid, englishPlural: current.msgidPlural,
                    translations: (0..<count).map { current.msgstr[$0, default: ""] }, comments: current.comments,
                    flags: current.flags, line: current.line))
        }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty {
                try finish()
                last = nil
                continue
            }
            if line.hasPrefix("#") {
                if current.hasMessage {
                    try finish()
                    last = nil
                }
                if current.line == 0 { current.line = lineNumber }
                if line.hasPrefix("#.") {
                    current.comments.append(line.dropFirst(2).trimmingCharacters(in: .whitespaces))
                } else if line.hasPrefix("#,") {
                    current.flags += line.dropFirst(2).split(separator: ",").map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                }
                continue
            }
            if line.hasPrefix("\"") {
                guard let keyword = last else {
                    throw CatalogError(file: file, line: lineNumber, message: "A string outside a message.")
                }
                try current.append(try Self.unquote(line, file: file, line: lineNumber), to: keyword)
                continue
            }
            guard let space = line.firstIndex(of: " ") else {
                throw CatalogError(file: file, line: lineNumber, message: "'\(line)' is not a PO line.")
            }
            let keyword = String(line[..<space])
            let value = try Self.unquote(
                line[line.index(after: space)...].trimmingCharacters(in: .whitespaces), file: file, line: lineNumber)
            if keyword == "msgctxt", current.hasMessage {
                try finish()
            }
            if current.line == 0 { current.line = lineNumber }
            try current.set(keyword, value, file: file, line: lineNumber)
            last = keyword
        }
        try finish()
        self.header = header
        self.entries = entries
    }

    /// A PO string's text: quoted, with C escapes.
    static func unquote(_ text: String, file: String, line: Int) throws -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else {
            throw CatalogError(file: file, line: line, message: "\(text) is not a quoted string.")
        }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\"", "\\": result.append(character)
                default:
                    throw CatalogError(file: file, line: line, message: "\\\(character) is not an escape PO knows.")
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A message as its lines are read.
    private struct RawEntry {
        var msgctxt: String?
        var msgid = ""
        var msgidPlural: String?
        var msgstr: [Int: String] = [:]
        var comments: [String] = []
        var flags: [String] = []
        var line = 0
        var sawMsgid = false

        var hasMessage: Bool { sawMsgid || msgctxt != nil }

        mutating func set(_ keyword: String, _ value: String, file: String, line: Int) throws {
            switch keyword {
            case "msgctxt": msgctxt = value
            case "msgid":
                msgid = value
                sawMsgid = true
            case "msgid_plural": msgidPlural = value
            case "msgstr": msgstr[0] = value
            default:
                guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                    let index = Int(keyword.dropFirst(7).dropLast())
                else { throw CatalogError(file: file, line: line, message: "'\(keyword)' is not a PO keyword.") }
                msgstr[index] = value
            }
        }

        mutating func append(_ value: String, to keyword: String) throws {
            switch keyword {
            case "msgctxt": msgctxt = (msgctxt ?? "") + value
            case "msgid": msgid += value
            case "msgid_plural": msgidPlural = (msgidPlural ?? "") + value
            case "msgstr": msgstr[0, default: ""] += value
            default:
                if let index = Int(keyword.dropFirst(7).dropLast()) { msgstr[index, default: ""] += value }
            }
        }
    }
}

/// What is wrong with a catalog, at its file and line (the build shows it there).
public typealias CatalogError = SourceError
