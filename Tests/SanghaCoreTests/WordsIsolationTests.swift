import SanghaCore
import Testing

/// A name in a message, or shown by itself, is set apart from the text around it (U+2068 …
/// U+2069, which a page writes as `<bdi>`) in every language but English.
struct WordsIsolationTests {
    @Test("A name placeholder's value is isolated in every language but English; a count is not")
    func namePlaceholders() {
        #expect(Words.english.friendsAdded(name: "Ada Lovelace") == "Added Ada Lovelace.")
        for language in Language.allCases where language != .en {
            let words = Words(language)
            #expect(words.friendsAdded(name: "Ada Lovelace").contains("\u{2068}Ada Lovelace\u{2069}"), "\(language)")
            #expect(words.historyWithGroup(group: "Morning").contains("\u{2068}Morning\u{2069}"), "\(language)")
            #expect(
                words.notificationsSitBegins(sit: "Zazen", time: "07:00").contains("\u{2068}Zazen\u{2069}"),
                "\(language)")
            // A plural's name too, and never its count.
            let week = words.groupsWeekSat(2, name: "Ada", duration: "1 h")
            #expect(week.contains("\u{2068}Ada\u{2069}") && !week.contains("\u{2068}1"), "\(language)")
        }
        // What an operator or a person wrote, set apart alike: a provider's name, a device's, a
        // search.
        for language in Language.allCases where language != .en {
            let words = Words(language)
            #expect(words.signInProviderFailed(provider: "Authentik").contains("\u{2068}Authentik\u{2069}"))
            #expect(
                words.notificationsRemoveDevice(device: "Firefox on Linux").contains("\u{2068}Firefox on Linux\u{2069}")
            )
            #expect(words.friendsNoMatch(query: "Ada").contains("\u{2068}Ada\u{2069}"), "\(language)")
        }
        #expect(Words.english.signInProviderFailed(provider: "Authentik").contains("Authentik"))
        #expect(!Words.english.signInProviderFailed(provider: "Authentik").contains("\u{2068}"))
    }

    @Test("isolated(_:) sets a name apart once, and leaves English and an empty name as they are")
    func isolated() {
        let arabic = Words(.ar)
        #expect(arabic.isolated("Ada") == "\u{2068}Ada\u{2069}")
        #expect(arabic.isolated(arabic.isolated("Ada")) == "\u{2068}Ada\u{2069}")
        #expect(arabic.isolated("") == "")
        #expect(Words.english.isolated("Ada") == "Ada")
        #expect(Words.english.isolated("Zoë Ødegård Ђорђе") == "Zoë Ødegård Ђорђе")
        // In English a name with a right-to-left letter is set apart, so "Added سارا." keeps its
        // full stop at the end; a message's name too.
        #expect(Words.english.isolated("سارا") == "\u{2068}سارا\u{2069}")
        #expect(Words.english.isolated("Sara שרה") == "\u{2068}Sara שרה\u{2069}")
        #expect(Words.english.friendsAdded(name: "سارا") == "Added \u{2068}سارا\u{2069}.")
        #expect(arabic.friendsAdded(name: arabic.isolated("Ada")).ranges(of: "\u{2068}").count == 1)
    }
}
