import Foundation

/// Everything Sangha says to a person, in one language: a property for each text, a function for
/// one with placeholders (`couldNotAdd(name:)`) or a count (`sessions(_:)`). The members and
/// each language's table are compiled from `Languages/*.po` when the app is built (the
/// CompileCatalogs plugin), so a missing or broken translation stops the build, not a page.
///
/// A page's view model reads them from its `PageContext` (`context.words`), made once for the
/// request's language.
public struct Words: Sendable, Equatable {
    public let language: Language
    private let phrases: [Phrase]

    public init(_ language: Language) {
        self.language = language
        phrases = Self.tables[language] ?? Self.tables[.en] ?? []
    }

    /// English, the template's own text.
    public static let english = Words(.en)

    /// Two are the same words when they are the same language's.
    public static func == (lhs: Words, rhs: Words) -> Bool { lhs.language == rhs.language }

    /// A message as compiled: its text, or its text cut at its placeholders, or its plural forms
    /// in the language's category order.
    enum Phrase: Sendable, Equatable {
        case text(String)
        case parts([Piece])
        case plural([[Piece]])
    }

    enum Piece: Sendable, Equatable {
        case text(String)
        /// The message's placeholder of this index.
        case value(Int)
        /// The message's placeholder of this index, a name: isolated (`isolated(_:)`).
        case name(Int)
    }

    /// A language's table as the catalog compiler writes it (`WordsGenerator`): one string, in
    /// which U+001E ends a phrase, U+001C begins a plural and U+001D ends each of its forms but
    /// the last, and a placeholder is U+001A, `v` (a value) or `n` (a name), its index, U+001A.
    /// Read once, at the first page. (As arrays of `Phrase` values, the tables took the Swift
    /// compiler 205 s to compile in a release build.)
    static func phrases(_ table: String) -> [Phrase] {
        table.unicodeScalars.split(separator: "\u{1E}", omittingEmptySubsequences: false).map { phrase in
            if phrase.first == "\u{1C}" {
                return .plural(
                    phrase.dropFirst().split(separator: "\u{1D}", omittingEmptySubsequences: false).map(pieces))
            }
            let pieces = pieces(phrase)
            guard pieces.contains(where: { if case .text = $0 { false } else { true } }) else {
                return .text(String(Substring(phrase)))
            }
            return .parts(pieces)
        }
    }

    /// A form's text and placeholders, as `phrases(_:)` reads them.
    private static func pieces(_ form: Substring.UnicodeScalarView) -> [Piece] {
        form.split(separator: "\u{1A}", omittingEmptySubsequences: false).enumerated().compactMap { index, part in
            guard index % 2 == 1 else { return part.isEmpty ? nil : .text(String(Substring(part))) }
            let number = Int(String(Substring(part.dropFirst()))) ?? 0
            return part.first == "n" ? .name(number) : .value(number)
        }
    }

    /// U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE: plain text's `<bdi>`.
    public static let isolateStart: Character = "\u{2068}"
    public static let isolateEnd: Character = "\u{2069}"

    /// Whether this language's texts set every name apart: a right-to-left language's, where a
    /// Latin name would take the sentence's direction, and the pseudo-language's (its checks see
    /// each name so). A left-to-right language sets apart only a name that holds a right-to-left
    /// letter (`holdsRightToLeft`): isolating a Latin name in a German sentence changes nothing
    /// a reader sees, but its marks reach a notification's or a calendar's plain text, and its
    /// `<bdi>`s a page's bytes. English pages stay byte for byte what they were.
    var isolatesNames: Bool { language.isRightToLeft || language == .pseudo }

    /// A name set apart from the text around it, so its own direction holds (a Latin name in an
    /// Arabic sentence, an Arabic one in a German or an English sentence): between U+2068 and
    /// U+2069, the Unicode isolates, which a notification or a calendar shows as they are and a
    /// page writes as `<bdi>…</bdi>` (`TemplateOutput`). An empty name, and in English a name
    /// with no right-to-left letter, as they are. A message's name placeholders (`{name}`) are
    /// isolated already; this is for a name a view model joins or shows itself. A name isolated
    /// already (a row's, posted back) is not isolated again.
    public func isolated(_ name: String) -> String {
        guard isolatesNames || Self.holdsRightToLeft(name), !name.isEmpty, !Self.isIsolated(name) else { return name }
        return String(Self.isolateStart) + name + String(Self.isolateEnd)
    }

    /// Whether `name` begins with U+2068 and ends with U+2069, told by its UTF-8 (E2 81 A8 …
    /// E2 81 A9) rather than by its first and last characters, which cost a grapheme break each.
    private static func isIsolated(_ name: String) -> Bool {
        let bytes = name.utf8
        return bytes.count >= 6 && bytes.starts(with: [0xE2, 0x81, 0xA8])
            && bytes.reversed().starts(with: [0xA9, 0x81, 0xE2])
    }

    /// Whether `name` holds a letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana,
    /// N'Ko and their neighbours, their presentation forms, and the right-to-left blocks beyond
    /// the first plane). Their UTF-8 begins at 0xD6 or above, so a Latin, Greek or Cyrillic name
    /// is told by its bytes alone.
    static func holdsRightToLeft(_ name: String) -> Bool {
        var name = name
        guard name.withUTF8({ bytes in bytes.contains { $0 >= 0xD6 } }) else { return false }
        return name.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
            default: false
            }
        }
    }

    func text(_ index: Int) -> String {
        if case .text(let text) = phrases[index] { return text }
        return text(index, [])
    }

    func text(_ index: Int, _ values: [String]) -> String {
        switch phrases[index] {
        case .text(let text): text
        case .parts(let pieces): join(pieces, values)
        case .plural(let forms): join(forms.last ?? [], values)
        }
    }

    func plural(_ index: Int, _ count: Int, _ values: [String]) -> String {
        guard case .plural(let forms) = phrases[index] else { return text(index, values) }
        let category = language.pluralCategory(count)
        let form = language.pluralCategories.firstIndex(of: category) ?? forms.count - 1
        return join(forms[min(form, forms.count - 1)], values)
    }

    /// A count as the language writes numbers (English as it always has: plain digits).
    public func number(_ value: Int) -> String {
        guard language != .en, language != .pseudo else { return String(value) }
        return FormattedTexts.shared.text(.number, value, in: language) {
            value.formatted(.number.locale(language.locale))
        }
    }

    /// The pieces with the values in their places, written once (`String(concatenating:)`). A
    /// name is isolated (`isolated(_:)`).
    private func join(_ pieces: [Piece], _ values: [String]) -> String {
        func text(_ piece: Piece) -> String {
            switch piece {
            case .text(let text): text
            case .value(let index): index < values.count ? values[index] : ""
            case .name(let index): index < values.count ? isolated(values[index]) : ""
            }
        }
        if pieces.count == 1 { return text(pieces[0]) }
        return String(concatenating: pieces.map(text))
    }
}
