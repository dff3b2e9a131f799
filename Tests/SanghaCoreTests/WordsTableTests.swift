import Testing

@testable import SanghaCore

/// A language's table as the catalog compiler writes it, read back into phrases.
struct WordsTableTests {
    @Test("A table's string reads back as its texts, placeholders (names and values) and plural forms")
    func phrases() {
        let table = [
            "Saved.",
            "\u{1A}n0\u{1A} could not be added.",
            "\u{1C}\u{1A}v0\u{1A} session\u{1D}\u{1A}v0\u{1A} sessions",
            "",
            "\u{1C}eine Sitzung\u{1D}\u{1A}v1\u{1A} mit \u{1A}n0\u{1A}",
            "{not a placeholder} é",
        ].joined(separator: "\u{1E}")
        #expect(
            Words.phrases(table) == [
                .text("Saved."),
                .parts([.name(0), .text(" could not be added.")]),
                .plural([[.value(0), .text(" session")], [.value(0), .text(" sessions")]]),
                .text(""),
                .plural([[.text("eine Sitzung")], [.value(1), .text(" mit "), .name(0)]]),
                .text("{not a placeholder} é"),
            ])
    }

    @Test("Every language's table has a phrase for each message, the same kind as English's")
    func everyLanguage() {
        let english = Words.tables[.en] ?? []
        #expect(english.count > 700)
        func kind(_ phrase: Words.Phrase) -> Int {
            switch phrase {
            case .text: 0
            case .parts: 1
            case .plural: 2
            }
        }
        for language in Language.allCases {
            let phrases = Words.tables[language] ?? []
            #expect(phrases.count == english.count, "\(language)")
            #expect(zip(phrases, english).allSatisfy { kind($0) == kind($1) }, "\(language)")
        }
    }
}
