import Foundation
import SanghaCore

/// The language picker at the foot of the sign-in and sign-up pages: each language Sangha speaks,
/// named in itself (and marked as in its own language, `lang`), the page's own chosen. Its post
/// sets the `lang` cookie and comes back to `next`, the page it was on.
public struct LanguagePickerViewModel: Sendable, Equatable, Encodable {
    public let actionURL: String = Paths.language.url
    public let label: String
    public let submitLabel: String
    /// Where the person comes back to: the page with the picker, and what it carried.
    public let next: String
    public let options: [LanguageOptionViewModel]

    public init(next: String, context: PageContext) {
        self.label = context.words.languageLabel
        self.submitLabel = context.words.languageSubmit
        self.next = next
        self.options = LanguageOptionViewModel.languages(selected: context.language)
    }
}

/// One choice of a language menu: what it posts, the language its name is in (`lang`; nil for a
/// choice in the page's own, "As my browser says"), and the name.
public struct LanguageOptionViewModel: Sendable, Equatable, Encodable {
    public let value: String
    public let lang: String?
    public let name: String
    public let isSelected: Bool

    /// Each language Sangha speaks, named in itself, `selected` chosen.
    static func languages(selected: Language?) -> [LanguageOptionViewModel] {
        Language.shipped.map {
            LanguageOptionViewModel(value: $0.tag, lang: $0.tag, name: $0.nativeName, isSelected: $0 == selected)
        }
    }
}
