import Foundation
import SanghaCore
import SanghaFixtures
import SanghaTestSupport
import SanghaViewModels
import SanghaWeb
import Testing

/// What the page scripts must agree with, written by the server: friend names and phone numbers
/// with the server's verdict and the rule's data as the friend form writes it on its inputs,
/// durations with `DurationFormatter`'s text, and timeline rows with their data attributes as
/// the sitting page writes them and what the script must read from them. Compared with
/// `Tests/JavaScript/server-vectors.json`, which the node tests read (`vectors.test.js`): a
/// change of wording, of a rule or of an attribute on this side fails here until the file is
/// recorded again (`SNAPSHOT_TESTING_RECORD=all`, as `make snapshots` does), and then fails there
/// until the script agrees.
@Suite("Vectors for the page scripts")
struct ScriptVectorSnapshotTests {
    static let file = RepositoryPaths.root.appendingPathComponent("Tests/JavaScript/server-vectors.json")

    struct Vectors: Codable, Equatable {
        /// Each friend field's input, as the script reads it (`dataset`).
        var friendFields: [String: [String: String]]
        var friendValues: [FriendValue]
        var durations: [Duration]
        var timeline: [TimelineRow]
    }

    struct FriendValue: Codable, Equatable {
        var field: String
        var value: String
        /// The server's message, nil when it takes the value.
        var message: String?
    }

    struct Duration: Codable, Equatable {
        var seconds: Int
        var text: String
    }

    struct TimelineRow: Codable, Equatable {
        /// The row's `dataset`, as the sitting page writes it.
        var data: [String: String]
        /// What the script must make of it (`timelineRow` in timeline.js).
        var row: Row
    }

    struct Row: Codable, Equatable {
        var time: Int
        var says: String
        var section: String?
        var sound: String?
        var strokes: Int
        var interval: Int
        var until: Int
    }

    @Test("The vectors the node tests read are the server's own")
    func vectors() throws {
        let vectors = try Self.make()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(vectors), as: UTF8.self) + "\n"
        let stored = try? String(contentsOf: Self.file, encoding: .utf8)
        let mode = ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"] ?? "missing"
        if stored == text { return }
        if mode == "all" || (stored == nil && mode != "never") {
            try text.write(to: Self.file, atomically: true, encoding: .utf8)
            Issue.record(
                "Recorded \(Self.file.path): review the diff, then run the node tests (node --test Tests/JavaScript/)")
            return
        }
        Issue.record(
            """
            \(Self.file.path) is not what the server writes now. If the change is meant, record it \
            (SNAPSHOT_TESTING_RECORD=all, or make snapshots) and make the page scripts agree.
            """)
        if let stored, let old = try? JSONDecoder().decode(Vectors.self, from: Data(stored.utf8)) {
            #expect(old.friendFields == vectors.friendFields)
            #expect(old.friendValues == vectors.friendValues)
            #expect(old.durations == vectors.durations)
            #expect(old.timeline == vectors.timeline)
        }
    }

    @Test("A name of 26 \"é\" written with a combining accent is taken; the page may not refuse it")
    func combiningAccents() throws {
        let name = String(repeating: "e\u{301}", count: 26)
        #expect(FriendFormInput(firstname: name, lastname: "Ada", phonenumber: "123").draft.validationErrors().isEmpty)
        let vectors = try Self.make()
        #expect(vectors.friendValues.contains(FriendValue(field: "firstname", value: name, message: nil)))
        // Nor does the browser: no maxlength, which would count 52 UTF-16 code units.
        #expect(vectors.friendFields["firstname"]?["maxlength"] == nil)
    }

    static func make() throws -> Vectors {
        Vectors(
            friendFields: try friendFields(), friendValues: friendValues(), durations: durations(),
            timeline: try timeline())
    }

    // MARK: Friends

    static func friendFields() throws -> [String: [String: String]] {
        let html = String(
            buffer: FriendFormViewModel(mode: .add, context: .fixture).compiledHTMLBuffer())
        var fields: [String: [String: String]] = [:]
        for tag in HTMLTags.elements("input", in: html) {
            guard let name = tag["name"], FriendField(rawValue: name) != nil else { continue }
            fields[name] = HTMLTags.dataset(of: tag).merging(
                tag.filter { $0.key == "maxlength" }, uniquingKeysWith: { $1 })
        }
        try #require(fields.count == FriendField.allCases.count)
        return fields
    }

    /// Names that show each rule and each difference there was between the script and Swift:
    /// characters counted as graphemes, what is trimmed (Foundation's whitespaces and newlines,
    /// not JavaScript's `trim`), Unicode's Alphabetic (not only letters) and marks (not enclosing
    /// ones).
    static let names: [String] = [
        "Zoë O’Brien-Smith", "山田", "Łukasz", "Σωκράτης", "محمد", "देवनागरी", "Ma\u{301}ria", "ﾀﾛｳ", "𝒜da",
        "O'Neil", "Jean-Luc", "d’Arc", "Mary Ann", "-", "'",
        "", " ", "  ", "\t", "\r\n", "\u{3000}",
        "J4ne", "Ada!", "🧘", String(repeating: "🧘", count: 50), "👍🏽", "a\u{200D}b", "A\nda", "a\r\nb",
        String(repeating: "a", count: 50), String(repeating: "a", count: 51),
        " " + String(repeating: "a", count: 50) + " ", "\u{3000}" + String(repeating: "a", count: 50),
        String(repeating: "e\u{301}", count: 26), String(repeating: "e\u{301}", count: 50),
        String(repeating: "e\u{301}", count: 51), String(repeating: "山", count: 51),
        String(repeating: "a", count: 49) + "👨‍👩‍👧", String(repeating: "a", count: 50) + "👨‍👩‍👧",
        " Ada ", "\u{A0}Ada\u{A0}", "\u{2003}Ada", "Ada\n", "\u{85}Ada", "Ada\u{2028}", "\u{FEFF}Ada", "Ada\u{FEFF}",
        "Ⅻ", "Ⓐnna", "e\u{20DD}", "\u{301}a", " \u{301}a", "a\u{0}",
    ]

    static let phoneNumbers: [String] = [
        "+44 (0) 7700-900.123", "(555) 555-5555", "123\u{A0}456", "+ 123", "12 3", "123", "+123",
        "", "  ", "-", "12", "1-2", "12a45", "++123", "+", "123+", "555\t555", "١٢٣٤", "１２３",
        String(repeating: "1", count: 20), String(repeating: "1", count: 21), "+" + String(repeating: "1", count: 20),
        Array(repeating: "1", count: 20).joined(separator: " "), "1-\u{301}23", "+\u{301}123",
    ]

    static func friendValues() -> [FriendValue] {
        var values: [FriendValue] = []
        for field in [FriendField.firstname, .lastname] {
            for name in names {
                var input = FriendFormInput(firstname: "Ada", lastname: "Lovelace", phonenumber: "123")
                if field == .firstname { input.firstname = name } else { input.lastname = name }
                values.append(
                    FriendValue(field: field.rawValue, value: name, message: input.draft.validationErrors()[field]))
            }
        }
        for number in phoneNumbers {
            let input = FriendFormInput(firstname: "Ada", lastname: "Lovelace", phonenumber: number)
            values.append(
                FriendValue(
                    field: FriendField.phonenumber.rawValue, value: number,
                    message: input.draft.validationErrors()[.phonenumber]))
        }
        return values
    }

    // MARK: Durations

    static func durations() -> [Duration] {
        [
            0, 1, 9, 59, 60, 61, 599, 600, 3599, 3600, 3601, 5399, 5400, 35_999, 36_000, 86_399, 86_400,
            259_200, 359_999, 360_000, 360_059,
        ].map { Duration(seconds: $0, text: DurationFormatter.string(from: $0)) }
    }

    // MARK: The timeline

    /// Every kind of row: sections beginning, sounds once and repeating, several strokes, an
    /// hour or more, the end; of a profile with every section, and of a group sit's page.
    static func timeline() throws -> [TimelineRow] {
        var profile = Profile.new(named: "Every row")
        profile.duration = 5400
        for type in [SegmentType.warmUp, .coolDown] { profile[type].enabled = true }
        profile[.warmUp][sound: .repeat] = Sound(
            type: .repeat, enabled: true, name: "Gong", iterations: 3, interval: 20)
        profile[.warmUp][sound: .end].name = "Wood Block"
        profile[.main][sound: .repeat] = Sound(
            type: .repeat, enabled: true, name: "Bell", iterations: 1, interval: 3600)
        profile[.coolDown][sound: .begin].iterations = 2
        let page = SittingViewModel(profile: profile, context: .fixture)
        let html = String(buffer: page.compiledHTMLBuffer())
        let rows = HTMLTags.elements("li", in: html).filter { $0["data-time"] != nil }
        try #require(rows.count == page.events.count)
        return zip(rows, page.events).map { tag, event in
            TimelineRow(
                data: HTMLTags.dataset(of: tag),
                row: Row(
                    time: event.seconds, says: event.says, section: event.section, sound: event.soundURL,
                    strokes: event.strokes, interval: event.interval, until: event.until))
        }
    }
}

/// Start tags read from a page the server wrote, for their attributes: enough for the
/// templates' own HTML (every value quoted with `"`, escaped by the templates).
enum HTMLTags {
    /// Each `<name …>` start tag's attributes, in order.
    static func elements(_ name: String, in html: String) -> [[String: String]] {
        var tags: [[String: String]] = []
        var rest = html[...]
        while let start = rest.range(of: "<\(name) ") ?? rest.range(of: "<\(name)>") {
            guard let end = rest[start.upperBound...].firstIndex(of: ">") else { break }
            tags.append(attributes(String(rest[start.upperBound..<end])))
            rest = rest[end...]
        }
        return tags
    }

    static func attributes(_ text: String) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = text[...]
        while true {
            rest = rest.drop { $0 == " " || $0 == "\n" }
            guard !rest.isEmpty else { break }
            let name = rest.prefix { $0 != "=" && $0 != " " }
            rest = rest.dropFirst(name.count)
            if rest.first == "=" {
                rest = rest.dropFirst(2)  // ="
                let value = rest.prefix { $0 != "\"" }
                attributes[String(name)] = unescaped(String(value))
                rest = rest.dropFirst(value.count + 1)
            } else {
                attributes[String(name)] = ""
            }
        }
        return attributes
    }

    /// The `data-` attributes as a browser's `dataset`: `data-max-characters` is `maxCharacters`.
    static func dataset(of tag: [String: String]) -> [String: String] {
        var dataset: [String: String] = [:]
        for (name, value) in tag where name.hasPrefix("data-") {
            let parts = name.dropFirst(5).split(separator: "-")
            let key = parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
            dataset[key] = value
        }
        return dataset
    }

    static func unescaped(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            rest = rest[amp...]
            guard let semicolon = rest.firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let character = named[String(entity)] {
                result += character
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X"),
                let scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            {
                result.unicodeScalars.append(scalar)
            } else if entity.hasPrefix("#"), let scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
