import Foundation

/// Which language a request is answered in, and what decided it: the signed-in person's choice
/// in Settings; else the `lang` cookie (the picker at the foot of the sign-in and sign-up pages);
/// else the browser's `Accept-Language`; else the deployment's default (`--default-language`).
public struct LanguageChoice: Sendable, Equatable {
    public let language: Language
    /// Whether `Accept-Language` decided it (the answer then varies by it: `Vary`).
    public let byBrowser: Bool

    public init(person: Language?, cookie: String?, acceptLanguage: String?, fallback: Language) {
        if let person {
            (language, byBrowser) = (person, false)
        } else if let cookie, let chosen = Language.shipped(tag: cookie) {
            (language, byBrowser) = (chosen, false)
        } else if let acceptLanguage, let found = Self.keptLookup(acceptLanguage) {
            (language, byBrowser) = (found, true)
        } else {
            (language, byBrowser) = (fallback, acceptLanguage != nil)
        }
    }

    /// `lookup`, kept by the header's value: a group's browsers send a few values between them,
    /// and a value of three ranges took 39 k instructions to look up again on every request.
    /// A value longer than any browser sends is looked up each time, never kept.
    static func keptLookup(_ header: String) -> Language? {
        guard header.utf8.count <= 200 else { return lookup(header) }
        return lookedUp.value(for: header) { lookup(header) }
    }

    private static let lookedUp = KeptValues<String, Language?>(limit: 256)

    /// RFC 4647's lookup of an `Accept-Language` value among the shipped languages: its ranges
    /// by their q-values (the first of equals first; `q=0` is "not this"), each truncated a
    /// subtag at a time until a tag matches (`es-419` takes `es`, `de-AT` takes `de`). A bare
    /// language Sangha ships in one region only takes that region (`pt`, and so `pt-PT`, take
    /// `pt-BR`).
    public static func lookup(_ header: String) -> Language? {
        var ranges: [(tag: String, q: Double, order: Int)] = []
        for (order, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingOptionalWhitespace() }
            guard let tag = parts.first?.lowercased(), !tag.isEmpty, tag != "*" else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 0
            }
            if q > 0 { ranges.append((tag, min(q, 1), order)) }
        }
        ranges.sort { $0.q != $1.q ? $0.q > $1.q : $0.order < $1.order }
        for range in ranges {
            var subtags = range.tag.split(separator: "-").map(String.init)
            while !subtags.isEmpty {
                let candidate = subtags.joined(separator: "-")
                if let exact = Language.shipped(lowercasedTag: candidate) { return exact }
                if subtags.count == 1 {
                    let regional = Language.lowercasedTags.filter { $0.tag.hasPrefix(candidate + "-") }
                    if regional.count == 1 { return regional[0].language }
                }
                subtags.removeLast()
                // A single-letter subtag (a private-use or extension marker) goes with the one after it.
                if subtags.last?.count == 1 { subtags.removeLast() }
            }
        }
        return nil
    }
}
