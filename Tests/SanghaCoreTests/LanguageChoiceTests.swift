import SanghaCore
import Testing

@Suite("Which language a request is answered in")
struct LanguageChoiceTests {
    @Test("Accept-Language by its q-values, each range looked up as RFC 4647 says, with Brazil for Portuguese")
    func acceptLanguage() {
        let cases: [(String, Language?)] = [
            ("de-AT,en;q=0.5", .de), ("pt", .ptBR), ("pt-PT", .ptBR), ("PT-br", .ptBR), ("es-419", .es),
            ("fr-CA;q=0.8, de;q=0.9", .de), ("ja, en;q=0.1", .en), ("ja", nil), ("de;q=0, fr", .fr), ("*", nil),
            ("ar-EG", .ar), ("vi-VN,vi;q=0.9", .vi), ("pl;q=0.5, en;q=0.5", .pl), ("zh-Hant-TW", nil),
            ("en-US-x-private", .en), ("", nil), ("de;q=abc", nil),
        ]
        for (header, expected) in cases {
            #expect(LanguageChoice.lookup(header) == expected, "\(header)")
            // Kept by the header's value: the same answer the second time.
            for _ in 0..<2 {
                let choice = LanguageChoice(person: nil, cookie: nil, acceptLanguage: header, fallback: .vi)
                #expect(choice.language == expected ?? .vi && choice.byBrowser, "\(header)")
            }
        }
        let long = String(repeating: "zz-ZZ;q=0.1, ", count: 40) + "de"
        #expect(LanguageChoice(person: nil, cookie: nil, acceptLanguage: long, fallback: .en).language == .de)
    }

    @Test("The person's choice, then the lang cookie, then the browser, then the deployment's default")
    func order() {
        let chosen = LanguageChoice(person: .pl, cookie: "fr", acceptLanguage: "de", fallback: .en)
        #expect(chosen == LanguageChoice(person: .pl, cookie: nil, acceptLanguage: nil, fallback: .en))
        #expect(chosen.language == .pl && !chosen.byBrowser)
        let cookie = LanguageChoice(person: nil, cookie: "fr", acceptLanguage: "de", fallback: .en)
        #expect(cookie.language == .fr && !cookie.byBrowser)
        let browser = LanguageChoice(person: nil, cookie: "xx", acceptLanguage: "de", fallback: .en)
        #expect(browser.language == .de && browser.byBrowser)
        let fallback = LanguageChoice(person: nil, cookie: nil, acceptLanguage: "ja", fallback: .vi)
        #expect(fallback.language == .vi && fallback.byBrowser, "the header was read, and found nothing")
        let nothing = LanguageChoice(person: nil, cookie: nil, acceptLanguage: nil, fallback: .en)
        #expect(nothing.language == .en && !nothing.byBrowser)
    }

    @Test("Each language is named in itself; Arabic alone is right to left; the pseudo-language is never offered")
    func names() {
        #expect(
            Language.shipped.map(\.nativeName) == [
                "English", "Deutsch", "Français", "Español", "Português (Brasil)", "Tiếng Việt", "Polski", "العربية",
            ])
        #expect(Language.allCases.filter(\.isRightToLeft) == [.ar])
        #expect(!Language.shipped.contains(.pseudo))
    }
}

@Suite("HTTP's optional white space")
struct OptionalWhitespaceTests {
    @Test("Spaces and tabs go from either end, nothing else and nothing between")
    func trimmed() {
        let cases: [(String, String)] = [
            ("  de;q=0.9\t", "de;q=0.9"), ("\t \t", ""), ("", ""), ("en", "en"), (" a b ", "a b"),
            // Not HTTP's white space: a line end, a no-break space.
            ("\nen\n", "\nen\n"), ("\u{A0}en", "\u{A0}en"), (" é ", "é"), (" e\u{301} ", "e\u{301}"),
        ]
        for (text, expected) in cases {
            #expect(String(text.trimmingOptionalWhitespace()) == expected, "\(text.debugDescription)")
            #expect(String(text.dropFirst(0).trimmingOptionalWhitespace()) == expected, "as a Substring")
        }
    }
}
