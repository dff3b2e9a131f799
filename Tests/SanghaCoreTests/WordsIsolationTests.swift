import SanghaCore
import Testing

/// A name in a message, or shown by itself, is set apart from the text around it (U+2068 …
/// U+2069, which a page writes as `<bdi>`) where its direction could be taken from the sentence:
/// every name in a right-to-left language (and the pseudo-language), a name with a right-to-left
/// letter in every language.
struct WordsIsolationTests {
    @Test(
        "A name placeholder's value is isolated in Arabic and the pseudo-language, a right-to-left name in every language; a count is not"
    )
    func namePlaceholders() {
        #expect(Words.english.friendsAdded(name: "Ada Lovelace") == "Added Ada Lovelace.")
        for language in Language.allCases {
            let words = Words(language)
            let all = language.isRightToLeft || language == .pseudo
            // A Latin name: set apart only where the sentence runs the other way (or the checks
            // of the pseudo-language look for it).
            #expect(
                words.friendsAdded(name: "Ada Lovelace").contains("\u{2068}Ada Lovelace\u{2069}") == all, "\(language)")
            #expect(words.historyWithGroup(group: "Morning").contains("\u{2068}Morning\u{2069}") == all, "\(language)")
            #expect(
                words.notificationsSitBegins(sit: "Zazen", time: "07:00").contains("\u{2068}Zazen\u{2069}") == all,
                "\(language)")
            #expect(
                !words.notificationsSitBegins(sit: "Zazen", time: "07:00").contains("\u{2068}") || all, "\(language)")
            // A right-to-left name everywhere, a plural's name too, and never its count.
            #expect(words.friendsAdded(name: "سارا").contains("\u{2068}سارا\u{2069}"), "\(language)")
            let week = words.groupsWeekSat(2, name: "שרה", duration: "1 h")
            #expect(week.contains("\u{2068}שרה\u{2069}") && !week.contains("\u{2068}1"), "\(language)")
        }
        // What an operator or a person wrote, set apart alike in Arabic: a provider's name, a
        // device's, a search.
        let arabic = Words(.ar)
        #expect(arabic.signInProviderFailed(provider: "Authentik").contains("\u{2068}Authentik\u{2069}"))
        #expect(
            arabic.notificationsRemoveDevice(device: "Firefox on Linux").contains("\u{2068}Firefox on Linux\u{2069}"))
        #expect(arabic.friendsNoMatch(query: "Ada").contains("\u{2068}Ada\u{2069}"))
        #expect(!Words(.de).signInProviderFailed(provider: "Authentik").contains("\u{2068}"))
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
        #expect(Words(.de).isolated("Ada") == "Ada")
        #expect(Words(.de).isolated("سارا") == "\u{2068}سارا\u{2069}")
        // In English a name with a right-to-left letter is set apart, so "Added سارا." keeps its
        // full stop at the end; a message's name too.
        #expect(Words.english.isolated("سارا") == "\u{2068}سارا\u{2069}")
        #expect(Words.english.isolated("Sara שרה") == "\u{2068}Sara שרה\u{2069}")
        #expect(Words.english.friendsAdded(name: "سارا") == "Added \u{2068}سارا\u{2069}.")
        #expect(arabic.friendsAdded(name: arabic.isolated("Ada")).ranges(of: "\u{2068}").count == 1)
    }
}
