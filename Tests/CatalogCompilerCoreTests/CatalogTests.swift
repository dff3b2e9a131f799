import CatalogCompilerCore
import Foundation
import SanghaCore
import Testing

@Suite("Language catalogs")
struct CatalogTests {
    static let template = #"""
        # The template.
        msgid ""
        msgstr ""
        "Language: en\n"
        "Plural-Forms: nplurals=2; plural=(n != 1);\n"

        #. Settings: the flash after a save.
        msgctxt "settings.saved"
        msgid "Settings saved."
        msgstr ""

        #. Friends: adding failed.
        msgctxt "friends.add-failed"
        msgid "Could not add {name}."
        msgstr ""

        msgctxt "history.sessions"
        msgid "{count} session"
        msgid_plural "{count} sessions"
        msgstr[0] ""
        msgstr[1] ""
        """#

    static func german(_ entries: String, plural: String = "nplurals=2; plural=(n != 1);") -> String {
        #"""
        msgid ""
        msgstr ""
        "Language: de\n"
        "Plural-Forms: \#(plural)\n"

        """# + entries
    }

    static let germanEntries = #"""
        msgctxt "settings.saved"
        msgid "Settings saved."
        msgstr "Einstellungen "
        "gespeichert."

        msgctxt "friends.add-failed"
        msgid "Could not add {name}."
        msgstr "{name} konnte nicht hinzugefügt werden."

        msgctxt "history.sessions"
        msgid "{count} session"
        msgid_plural "{count} sessions"
        msgstr[0] "eine Sitzung"
        msgstr[1] "{count} Sitzungen"
        """#

    static let used: Set<String> = ["settingsSaved", "friendsAddFailed", "historySessions"]

    func catalog(_ german: String, used: Set<String>? = used) throws -> Catalog {
        try Catalog(
            template: Self.template, templateFile: "sangha.pot", languages: [("de", german, "de.po")],
            usedNames: used)
    }

    /// Expects the German catalog `text` to be refused, saying `message`.
    func expectRefused(_ text: String, used: Set<String>? = used, saying message: String) {
        #expect {
            _ = try catalog(text, used: used)
        } throws: { error in
            String(describing: error).contains(message)
        }
    }

    @Test(
        "Areas' folders join: their messages after the root's, each language's in the same order; a key in two or a language missing is refused"
    )
    func domains() throws {
        let area = #"""
            msgid ""
            msgstr ""
            "Language: en\n"
            "Plural-Forms: nplurals=2; plural=(n != 1);\n"

            msgctxt "profiles.saved"
            msgid "Profile saved."
            msgstr ""
            """#
        let areaGerman = Self.german(
            #"""
            msgctxt "profiles.saved"
            msgid "Profile saved."
            msgstr "Profil gespeichert."
            """#)
        let root = Catalog.Domain(
            template: Self.template, templateFile: "sangha.pot",
            languages: [("de", Self.german(Self.germanEntries), "de.po")])
        let profiles = Catalog.Domain(
            template: area, templateFile: "Profiles/profiles.pot", languages: [("de", areaGerman, "Profiles/de.po")])
        let catalog = try Catalog(domains: [root, profiles], usedNames: Self.used.union(["profilesSaved"]))
        #expect(catalog.messages.map(\.key).last == "profiles.saved")
        #expect(catalog.translations.map(\.code) == ["de"])
        #expect(catalog.translations[0].forms.count == 4 && catalog.translations[0].forms[3] == ["Profil gespeichert."])
        #expect {
            _ = try Catalog(domains: [root, root], usedNames: Self.used)
        } throws: { String(describing: $0).contains("is in another template too") }
        let noGerman = Catalog.Domain(template: area, templateFile: "Profiles/profiles.pot", languages: [])
        #expect {
            _ = try Catalog(domains: [root, noGerman], usedNames: Self.used.union(["profilesSaved"]))
        } throws: { String(describing: $0).contains("Its folder has the languages") }
    }

    @Test("A catalog is read: its header, keys, English, plural forms across lines, comments")
    func read() throws {
        let catalog = try catalog(Self.german(Self.germanEntries))
        #expect(catalog.messages.map(\.key) == ["settings.saved", "friends.add-failed", "history.sessions"])
        #expect(catalog.messages.map(\.name) == ["settingsSaved", "friendsAddFailed", "historySessions"])
        #expect(catalog.messages[0].comments == ["Settings: the flash after a save."])
        #expect(catalog.messages[1].placeholders == ["name"])
        #expect(catalog.messages[2].placeholders == ["count"])
        #expect(
            catalog.translations[0].forms == [
                ["Einstellungen gespeichert."], ["{name} konnte nicht hinzugefügt werden."],
                ["eine Sitzung", "{count} Sitzungen"],
            ])
    }

    @Test("A build refuses a missing, fuzzy or empty translation, one from another English text, and an unknown key")
    func refusals() {
        let missing = Self.germanEntries.replacingOccurrences(
            of: "msgctxt \"settings.saved\"", with: "msgctxt \"other\"")
        expectRefused(Self.german(missing), saying: "other is not in the template")
        let dropped = Self.germanEntries.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
        expectRefused(Self.german(dropped), saying: "settings.saved (\"Settings saved.\") is not translated")
        expectRefused(
            Self.german("#, fuzzy\n" + Self.germanEntries), saying: "settings.saved is not translated (empty or fuzzy)")
        expectRefused(
            Self.german(
                Self.germanEntries.replacingOccurrences(of: "msgid \"Settings saved.\"", with: "msgid \"Saved.\"")),
            saying: "translates another English text")
    }

    @Test("A build refuses a placeholder that differs from the English, and the wrong number of plural forms")
    func placeholdersAndPlurals() {
        expectRefused(
            Self.german(Self.germanEntries.replacingOccurrences(of: "{name} konnte", with: "{nam} konnte")),
            saying: "friends.add-failed")
        expectRefused(
            Self.german(Self.germanEntries, plural: "nplurals=3; plural=(n != 1);"),
            saying: "de has 2 plural forms by CLDR")
        expectRefused(
            Self.german(Self.germanEntries.replacingOccurrences(of: "msgstr[1] \"{count} Sitzungen\"", with: "")),
            saying: "history.sessions has 1 forms; de has 2")
        expectRefused(
            Self.german(Self.germanEntries.replacingOccurrences(of: "eine Sitzung", with: "{name} Sitzung")),
            saying: "history.sessions")
    }

    @Test("A build refuses a message holding a character the compiled tables are written with")
    func separators() {
        expectRefused(
            Self.german(Self.germanEntries.replacingOccurrences(of: "eine Sitzung", with: "eine\u{1E}Sitzung")),
            saying: "holds a control character (U+001A to U+001E)")
    }

    @Test("A build refuses a message no code uses")
    func unused() {
        expectRefused(
            Self.german(Self.germanEntries), used: ["settingsSaved", "historySessions"],
            saying: "No code uses friends.add-failed")
    }

    @Test("The Swift has a member a message, and each language's phrases cut at their placeholders")
    func generated() throws {
        let code = WordsGenerator.swift(try catalog(Self.german(Self.germanEntries)))
        #expect(code.contains("public var settingsSaved: String { self.text(0) }"))
        #expect(code.contains("public func friendsAddFailed(name: String) -> String {\n        self.text(1, [name])"))
        #expect(
            code.contains(
                "public func historySessions(_ count: Int) -> String {\n        self.plural(2, count, [self.number(count)])"
            ))
        // Each language's table is one string: phrases end at U+001E, a plural begins with U+001C
        // and its forms end at U+001D; a placeholder is U+001A, n (a name, which `Words`
        // isolates) or v (a value), its index, U+001A.
        #expect(code.contains(#".de: Words.phrases("#))
        #expect(code.contains(#"\u{1e}\u{1a}n0\u{1a} konnte nicht hinzugefügt werden.\u{1e}"#))
        #expect(code.contains(#"\u{1e}\u{1c}eine Sitzung\u{1d}\u{1a}v0\u{1a} Sitzungen"#))
        // The pseudo-language: accented, a third longer, in brackets.
        #expect(code.contains(#""[Šéttîñgš šàvéd.·····]\u{1e}"#))
    }

    @Test("Braces around anything but a placeholder's name are text, and the placeholders after them are cut")
    func bracesThatAreText() throws {
        let template = Self.template.replacingOccurrences(
            of: "msgid \"Could not add {name}.\"", with: "msgid \"{:)} Could not add {name}.\"")
        let entries = Self.germanEntries.replacingOccurrences(
            of: "msgid \"Could not add {name}.\"\nmsgstr \"{name} konnte nicht hinzugefügt werden.\"",
            with: "msgid \"{:)} Could not add {name}.\"\nmsgstr \"{:)} {name} konnte nicht hinzugefügt werden.\"")
        #expect(entries != Self.germanEntries)
        let parsed = try Catalog(
            template: template, templateFile: "sangha.pot",
            languages: [(code: "de", text: Self.german(entries), file: "de.po")], usedNames: nil)
        let code = WordsGenerator.swift(parsed)
        #expect(code.contains(#"\u{1e}{:)} \u{1a}n0\u{1a} konnte nicht hinzugefügt werden.\u{1e}"#))
        #expect(code.contains(#"\u{1e}{:)} Could not add \u{1a}n0\u{1a}.\u{1e}"#))
    }

    @Test("A plural whose count is not its first placeholder is given its values in the pieces' order")
    func pluralWithNames() throws {
        let template = Self.template.replacingOccurrences(
            of: "msgid \"{count} session\"\nmsgid_plural \"{count} sessions\"",
            with: "msgid \"{name}: {count} session\"\nmsgid_plural \"{name}: {count} sessions\"")
        let entries = Self.germanEntries.replacingOccurrences(
            of:
                "msgid \"{count} session\"\nmsgid_plural \"{count} sessions\"\nmsgstr[0] \"eine Sitzung\"\nmsgstr[1] \"{count} Sitzungen\"",
            with: "msgid \"{name}: {count} session\"\nmsgid_plural \"{name}: {count} sessions\"\n"
                + "msgstr[0] \"{name}: eine Sitzung\"\nmsgstr[1] \"{name}: {count} Sitzungen\"")
        #expect(entries != Self.germanEntries)
        let parsed = try Catalog(
            template: template, templateFile: "sangha.pot",
            languages: [(code: "de", text: Self.german(entries), file: "de.po")], usedNames: nil)
        let code = WordsGenerator.swift(parsed)
        #expect(
            code.contains(
                "public func historySessions(_ count: Int, name: String) -> String {\n        self.plural(2, count, [name, self.number(count)])"
            ))
    }

    @Test("CLDR's plural categories: the catalogs' order is the app's, and each language chooses as CLDR says")
    func pluralRules() {
        for language in Language.shipped {
            #expect(PluralCategories.of[language.tag] == language.pluralCategories.map(\.rawValue), "\(language)")
        }
        let polish = [
            1: "one", 2: "few", 4: "few", 5: "many", 12: "many", 14: "many", 22: "few", 25: "many", 112: "many",
        ]
        for (n, category) in polish { #expect(Language.pl.pluralCategory(n).rawValue == category, "pl \(n)") }
        let arabic = [
            0: "zero", 1: "one", 2: "two", 3: "few", 10: "few", 11: "many", 99: "many", 100: "other", 103: "few",
        ]
        for (n, category) in arabic { #expect(Language.ar.pluralCategory(n).rawValue == category, "ar \(n)") }
        #expect(Language.fr.pluralCategory(0) == .one && Language.fr.pluralCategory(2) == .other)
        #expect(Language.fr.pluralCategory(1_000_000) == .many && Language.es.pluralCategory(0) == .other)
        #expect(Language.vi.pluralCategory(1) == .other)
    }

    static let languagesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Languages")

    @Test(
        "GNU msgfmt -c agrees with every catalog Sangha ships",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt")
                || ProcessInfo.processInfo.environment["CI"] == "true"))
    func msgfmt() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.languagesFolder.path)
            .filter { $0.hasSuffix(".po") || $0.hasSuffix(".pot") }
        let folders = Set(files.map { ($0 as NSString).deletingLastPathComponent })
        #expect(files.count == 8 * folders.count, "in each folder, the template and seven languages")
        for file in files {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
            process.arguments = ["-c", "-o", "/dev/null", Self.languagesFolder.appending(path: file).path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(file): \(said)")
            #expect(!said.contains("warning"), "\(file): \(said)")
        }
    }
}
