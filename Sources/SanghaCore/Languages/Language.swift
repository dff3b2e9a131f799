import Foundation

/// The languages Sangha speaks, by their BCP 47 tags, each named in itself where a person picks
/// one. English is the source (the catalog template's text); the others are translations
/// (`Languages/TAG.po`), checked and compiled into `Words` when the app is built.
public enum Language: String, CaseIterable, Sendable, Codable, Hashable {
    case en, de, fr, es
    case ptBR = "pt-BR"
    case vi, pl, ar
    /// English made strange (accented, a third longer, in brackets) from the template: what the
    /// tests render every page in, so a text that skipped the catalog shows outside brackets.
    /// Never offered to a person.
    case pseudo = "en-XA"

    /// What a person may choose, in the order the pickers list them.
    public static let shipped: [Language] = [.en, .de, .fr, .es, .ptBR, .vi, .pl, .ar]

    /// The shipped language of a tag, whatever its case (`pt-br` is `pt-BR`); nil for any other.
    public static func shipped(tag: String) -> Language? {
        shipped(lowercasedTag: tag.lowercased())
    }

    static func shipped(lowercasedTag tag: String) -> Language? {
        lowercasedTags.first { $0.tag == tag }?.language
    }

    /// The shipped languages' tags in lower case, made once: the cookie and `Accept-Language` are
    /// looked up in them on every request.
    static let lowercasedTags = shipped.map { (tag: $0.tag.lowercased(), language: $0) }

    /// The tag, as `<html lang>`, `Content-Language` and the `lang` cookie say it.
    public var tag: String { rawValue }

    /// The language's own name for itself.
    public var nativeName: String {
        switch self {
        case .en: "English"
        case .de: "Deutsch"
        case .fr: "Français"
        case .es: "Español"
        case .ptBR: "Português (Brasil)"
        case .vi: "Tiếng Việt"
        case .pl: "Polski"
        case .ar: "العربية"
        case .pseudo: "[Éñĝļîšĥ]"
        }
    }

    /// Arabic is written right to left: its pages mirror (`<html dir="rtl">`).
    public var isRightToLeft: Bool { self == .ar }

    /// The locale of its dates, times and numbers (CLDR's, through Foundation).
    public var locale: Locale {
        Locale(identifier: self == .pseudo ? "en" : rawValue)
    }

    /// CLDR's cardinal plural categories of the language, in CLDR's order: the order of a plural
    /// message's forms in its catalog.
    public var pluralCategories: [PluralCategory] {
        switch self {
        case .en, .de, .pseudo: [.one, .other]
        case .fr, .es, .ptBR: [.one, .many, .other]
        case .vi: [.other]
        case .pl: [.one, .few, .many, .other]
        case .ar: [.zero, .one, .two, .few, .many, .other]
        }
    }

    /// The category of a whole number `n` by CLDR's rules (integers: `i` is `n`, `v` is 0).
    public func pluralCategory(_ n: Int) -> PluralCategory {
        let i = abs(n)
        switch self {
        case .en, .de, .pseudo:
            return i == 1 ? .one : .other
        case .fr, .ptBR:
            if i == 0 || i == 1 { return .one }
            return i != 0 && i % 1_000_000 == 0 ? .many : .other
        case .es:
            if i == 1 { return .one }
            return i != 0 && i % 1_000_000 == 0 ? .many : .other
        case .vi:
            return .other
        case .pl:
            if i == 1 { return .one }
            if (2...4).contains(i % 10), !(12...14).contains(i % 100) { return .few }
            return .many
        case .ar:
            switch i {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default:
                if (3...10).contains(i % 100) { return .few }
                if (11...99).contains(i % 100) { return .many }
                return .other
            }
        }
    }
}

/// CLDR's plural categories.
public enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other
}
