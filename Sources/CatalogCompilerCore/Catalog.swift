import Foundation

/// Sangha's messages: the template of the English ones (`Languages/sangha.pot`: each message's
/// stable key as `msgctxt`, its English text, and a comment for translators) and one catalog a
/// shipped language (`Languages/de.po`…), checked as a build must refuse them. A page's area keeps
/// its own template and catalogs in a folder of its own (`Languages/Profiles/profiles.pot`,
/// `Languages/Profiles/de.po`), a domain as gettext calls it; `Catalog(domains:)` joins them:
///
/// - every domain has the same languages, and no key stands in two;
///
/// - every message of the template is translated in every language, and no translation is
///   marked `fuzzy` (a tool's guess no person checked);
/// - a translation has the English text's placeholders (`{name}`), no more and no fewer (a
///   plural form may leave out `{count}`: "eine Sitzung");
/// - a language's catalog has as many plural forms as CLDR gives it (Polish four, Arabic six),
///   in its header and in every plural message;
/// - no catalog has a message the template lacks, and no message of the template is one the
///   code never uses.
public struct Catalog: Sendable {
    public struct Message: Sendable, Equatable {
        public let key: String
        public let english: String
        public let englishPlural: String?
        public let comments: [String]
        /// Its placeholders in the order the English text first names them.
        public let placeholders: [String]
        public var isPlural: Bool { englishPlural != nil }
        /// The Swift name the code reads it by: `settings.saved` → `settingsSaved`.
        public var name: String { Catalog.swiftName(of: key) }
    }

    /// A language's messages, in the template's order; each one form (a message that does not
    /// count) or one a plural category of the language (CLDR's order).
    public struct Translation: Sendable {
        public let code: String
        public let forms: [[String]]
    }

    public let messages: [Message]
    public let translations: [Translation]

    /// One folder's template and its languages' catalogs.
    public struct Domain: Sendable {
        public let template: String
        public let templateFile: String
        public let languages: [(code: String, text: String, file: String)]

        public init(template: String, templateFile: String, languages: [(code: String, text: String, file: String)]) {
            (self.template, self.templateFile, self.languages) = (template, templateFile, languages)
        }
    }

    /// Checks and joins every domain's messages, in the order given (each domain's in its
    /// template's order).
    public init(domains: [Domain], usedNames: Set<String>?) throws {
        var messages: [Message] = []
        var forms: [String: [[String]]] = [:]
        var codes: [String]?
        for domain in domains {
            let catalog = try Catalog(
                template: domain.template, templateFile: domain.templateFile, languages: domain.languages,
                usedNames: usedNames)
            let here = catalog.translations.map(\.code).sorted()
            if let codes, codes != here {
                throw CatalogError(
                    file: domain.templateFile, line: 1,
                    message:
                        "Its folder has the languages \(here.joined(separator: ", ")), the others \(codes.joined(separator: ", "))."
                )
            }
            codes = here
            for message in catalog.messages where messages.contains(where: { $0.key == message.key }) {
                throw CatalogError(
                    file: domain.templateFile, line: 1, message: "The key \(message.key) is in another template too.")
            }
            messages += catalog.messages
            for translation in catalog.translations { forms[translation.code, default: []] += translation.forms }
        }
        self.messages = messages
        self.translations = (codes ?? []).map { Translation(code: $0, forms: forms[$0] ?? []) }
    }

    /// Checks and reads the template and the languages' catalogs (`languages`: each code with its
    /// file's text and name). `usedNames`: every Swift name the code reads (nil: not checked).
    public init(
        template: String, templateFile: String, languages: [(code: String, text: String, file: String)],
        usedNames: Set<String>?
    ) throws {
        let pot = try PortableObject(text: template, file: templateFile)
        var messages: [Message] = []
        var seen: Set<String> = []
        for entry in pot.entries {
            try Self.refuseSeparators(in: entry, file: templateFile)
            guard seen.insert(entry.key).inserted else {
                throw CatalogError(file: templateFile, line: entry.line, message: "The key \(entry.key) is used twice.")
            }
            let placeholders = Self.placeholders(in: entry.english)
            if let plural = entry.englishPlural {
                guard Set(Self.placeholders(in: plural)) == Set(placeholders).union(["count"]),
                    Self.placeholders(in: plural).contains("count")
                else {
                    throw CatalogError(
                        file: templateFile, line: entry.line,
                        message: "\(entry.key): the plural names {count}, and the placeholders of the singular.")
                }
            }
            if let usedNames, !usedNames.contains(Self.swiftName(of: entry.key)) {
                throw CatalogError(
                    file: templateFile, line: entry.line,
                    message: "No code uses \(entry.key) (Words.\(Self.swiftName(of: entry.key))): remove it from the "
                        + "template and every language.")
            }
            let ordered = entry.englishPlural.map { Self.placeholders(in: $0) + placeholders } ?? placeholders
            messages.append(
                Message(
                    key: entry.key, english: entry.english, englishPlural: entry.englishPlural,
                    comments: entry.comments,
                    placeholders: ordered.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }))
        }
        var translations: [Translation] = []
        for (code, text, file) in languages {
            translations.append(try Self.translation(code: code, text: text, file: file, of: messages))
        }
        self.messages = messages
        self.translations = translations
    }

    private static func translation(code: String, text: String, file: String, of messages: [Message]) throws
        -> Translation
    {
        let po = try PortableObject(text: text, file: file)
        guard let categories = PluralCategories.of[code] else {
            throw CatalogError(
                file: file, line: 1, message: "\(code) is not a language CLDR's rules are known here for.")
        }
        // gettext writes a region after an underscore (`pt_BR`), the web after a hyphen.
        guard po.header["Language"] == code.replacingOccurrences(of: "-", with: "_") else {
            throw CatalogError(
                file: file, line: 1,
                message: "The header says Language: \(po.header["Language"] ?? "none"), not \(code).")
        }
        guard po.pluralCount == categories.count else {
            throw CatalogError(
                file: file, line: 1,
                message:
                    "\(code) has \(categories.count) plural forms by CLDR (\(categories.joined(separator: ", "))); "
                    + "Plural-Forms says \(po.pluralCount.map(String.init) ?? "nothing").")
        }
        var byKey: [String: PortableObject.Entry] = [:]
        for entry in po.entries {
            guard messages.contains(where: { $0.key == entry.key }) else {
                throw CatalogError(
                    file: file, line: entry.line, message: "\(entry.key) is not in the template: remove it here.")
            }
            try refuseSeparators(in: entry, file: file)
            byKey[entry.key] = entry
        }
        var forms: [[String]] = []
        for message in messages {
            guard let entry = byKey[message.key] else {
                throw CatalogError(
                    file: file, line: 1, message: "\(message.key) (\"\(message.english)\") is not translated.")
            }
            guard !entry.isFuzzy, !entry.translations.contains(where: \.isEmpty) else {
                throw CatalogError(
                    file: file, line: entry.line, message: "\(message.key) is not translated (empty or fuzzy).")
            }
            guard entry.english == message.english, entry.englishPlural == message.englishPlural else {
                throw CatalogError(
                    file: file, line: entry.line,
                    message: "\(message.key) translates another English text than the template's: update it.")
            }
            let wanted = message.isPlural ? categories.count : 1
            guard entry.translations.count == wanted else {
                throw CatalogError(
                    file: file, line: entry.line,
                    message: "\(message.key) has \(entry.translations.count) forms; \(code) has \(wanted).")
            }
            for form in entry.translations {
                let found = Set(placeholders(in: form))
                let english = Set(message.placeholders)
                let fits =
                    message.isPlural
                    ? found.isSubset(of: english) && english.subtracting(["count"]).isSubset(of: found)
                    : found == english
                guard fits else {
                    throw CatalogError(
                        file: file, line: entry.line,
                        message: "\(message.key): \"\(form)\" names \(found.sorted()), the English \(english.sorted())."
                    )
                }
            }
            forms.append(entry.translations)
        }
        return Translation(code: code, forms: forms)
    }

    /// A message may not hold the control characters the compiled tables are written with
    /// (`WordsGenerator.separators`).
    private static func refuseSeparators(in entry: PortableObject.Entry, file: String) throws {
        let texts = [entry.english] + (entry.englishPlural.map { [$0] } ?? []) + entry.translations
        guard texts.contains(where: { $0.unicodeScalars.contains(where: WordsGenerator.separators.contains) }) else {
            return
        }
        throw CatalogError(
            file: file, line: entry.line, message: "\(entry.key) holds a control character (U+001A to U+001E).")
    }

    /// `{name}`s in `text`, in order, each as often as it stands.
    static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = rest[rest.index(after: open)..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }) { names.append(String(name)) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// A key as a Swift name: its parts joined in lowerCamelCase (`nav.my-page` → `navMyPage`).
    public static func swiftName(of key: String) -> String {
        let words = key.split(whereSeparator: { $0 == "." || $0 == "-" || $0 == "_" })
        return words.enumerated().map { index, word in
            index == 0 ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
    }
}

/// CLDR's cardinal plural categories of each language Sangha ships, in CLDR's order: a plural
/// message's forms come in this order in its catalog.
public enum PluralCategories {
    public static let of: [String: [String]] = [
        "en": ["one", "other"], "de": ["one", "other"], "fr": ["one", "many", "other"],
        "es": ["one", "many", "other"], "pt-BR": ["one", "many", "other"], "vi": ["other"],
        "pl": ["one", "few", "many", "other"], "ar": ["zero", "one", "two", "few", "many", "other"],
    ]
}
