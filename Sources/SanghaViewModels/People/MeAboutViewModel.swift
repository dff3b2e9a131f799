import Foundation
import SanghaCore

/// The person's own words on their page, or, with none yet, a way to Settings to write some.
public struct MeAboutViewModel: Sendable, Equatable, Encodable {
    public static let noTextMessage = "Nothing here yet."

    public let title: String
    /// Their text as they wrote it, line breaks kept (blank lines around it trimmed); nil when
    /// there is none.
    public let text: String?
    public let emptyMessage: String?
    /// To Settings, where the text is written; only while there is none.
    public let editLink: LinkViewModel?

    public init(person: Person, words: Words) {
        title = words.accountAbout
        let trimmed = person.about.trimmingCharacters(in: .whitespacesAndNewlines)
        let written = !trimmed.isEmpty
        text = written ? trimmed : nil
        emptyMessage = written ? nil : words.meNothingYet
        editLink = written ? nil : LinkViewModel(url: Paths.settings.url, label: words.meWriteSomething)
    }
}
