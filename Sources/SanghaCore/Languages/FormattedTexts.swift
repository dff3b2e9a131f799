import Foundation

/// What Foundation wrote for a language's number, date or time, kept: a page in German wrote each
/// of its fifty rows' dates through `Date.FormatStyle` (ICU), 20 k instructions each, and
/// `/history` in German cost twice the English page. Each text is a function of its key alone
/// (the language, what is written, and a number: the value, or the wall clock's day or minute),
/// so a kept one is never stale; English never comes here (it writes its own bytes). At most
/// `limit` texts (a few hundred kilobytes); past that, all go.
public final class FormattedTexts: Sendable {
    /// What a text is of; `value` says which one.
    public enum Kind: UInt8, Sendable {
        case number, dayAndTime, time, shortDate, shortDay, longDay, monthAndYear, shortMonth, shortWeekday
        case abbreviatedDate, monthOnItsOwnAndYear, outboxForms
    }

    struct Key: Hashable {
        let language: Language
        let kind: Kind
        let value: Int
    }

    public static let shared = FormattedTexts()
    public static let limit = 20_000

    private let texts = KeptValues<Key, String>(limit: FormattedTexts.limit)

    public init() {}

    /// The text of `kind` for `value` in `language`: the kept one, else `write()`'s, kept.
    public func text(_ kind: Kind, _ value: Int, in language: Language, _ write: () -> String) -> String {
        texts.value(for: Key(language: language, kind: kind, value: value), write)
    }

    public var count: Int { texts.count }
}
