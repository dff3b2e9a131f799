import Foundation
import Mustache
import TemplateMarkup

/// swift-mustache over the templates in a folder: the renderer of `--dev`, which reads them
/// again on every render so an edit shows on reload, and the reference that the compiled
/// templates must match byte for byte in tests. `sangha serve` without `--dev` never loads it.
public struct MustacheTemplates: Sendable {
    public let directory: URL
    public let reload: Bool
    private let library: MustacheLibrary

    public enum LoadError: Error, CustomStringConvertible {
        case missingTemplate(String, directory: String)

        public var description: String {
            switch self {
            case .missingTemplate(let name, let directory):
                "Template '\(name).mustache' is missing from \(directory)."
            }
        }
    }

    /// The templates the app renders with; loading fails loudly without one of them.
    static let requiredTemplates = ["layout"] + CompiledTemplates.names

    public init(directory: URL, reload: Bool = false) async throws {
        self.directory = directory
        self.reload = reload
        self.library = try await MustacheLibrary(directory: directory.path)
        for name in Set(Self.requiredTemplates) where library.getTemplate(named: name) == nil {
            throw LoadError.missingTemplate(name, directory: directory.path)
        }
    }

    /// The view model rendered with its template.
    public func render(_ value: some Renderable) -> String {
        let library = reload ? reloadedLibrary() : self.library
        guard let html = library.render(value, withTemplate: type(of: value).template) else {
            // Only reachable in development, when a template was deleted after start-up.
            return "Template \(type(of: value).template) is missing."
        }
        return Self.bidiElements(html)
    }

    /// `html` with the isolates a name is set apart by (U+2068 … U+2069, `Words.isolated`) written
    /// as `<bdi>` … `</bdi>` where they stand in the page's text, as the compiled templates write
    /// them (`TemplateOutput.appendText`); in a tag, an attribute, `<title>`, `<option>` and the
    /// like they stay characters. Where the text is, is read as the compiler reads it
    /// (`MarkupPlace`), so the two cannot disagree. An end with no start stays a character. A
    /// start a value leaves open stays open (the browser ends it with its parent): the compiled
    /// page ends it after the value, which the whole page read here no longer shows.
    static func bidiElements(_ html: String) -> String {
        let scalars = html.unicodeScalars
        guard scalars.contains("\u{2068}") else { return html }
        var (place, result, open) = (MarkupPlace(), "", 0)
        var start = scalars.startIndex
        for index in scalars.indices where scalars[index] == "\u{2068}" || scalars[index] == "\u{2069}" {
            let before = String(scalars[start..<index])
            place.follow(before)
            result += before
            let opens = scalars[index] == "\u{2068}"
            if place.isText, opens || open > 0 {
                result += opens ? "<bdi>" : "</bdi>"
                open += opens ? 1 : -1
            } else {
                result.unicodeScalars.append(scalars[index])
            }
            start = scalars.index(after: index)
        }
        return result + String(scalars[start...])
    }

    private func reloadedLibrary() -> MustacheLibrary {
        var templates: [String: MustacheTemplate] = [:]
        let root = directory.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".mustache"),
                let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8),
                let template = try? MustacheTemplate(string: text)
            else { continue }
            templates[String(path.dropLast(".mustache".count))] = template
        }
        return templates.isEmpty ? library : MustacheLibrary(templates: templates)
    }
}
