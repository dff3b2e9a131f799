import Foundation
import Hummingbird
import Mustache
import SanghaViewModels

/// Renders view models with the templates in `Templates/`, as HTML, or as JSON when the request
/// prefers it.
///
/// Pages are written by the templates compiled to Swift at build time (`compiledHTMLBuffer()`). In
/// development (`reloadTemplates`) swift-mustache renders them instead, reading the templates
/// from disk on every render, so an edit shows on reload; tests use it as the reference the
/// compiled templates must match byte for byte. The templates are parsed at start-up too, and a
/// missing or broken one stops the start.
public struct PageRenderer: Sendable {
    public let templatesDirectory: URL
    public let reloadTemplates: Bool
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

    /// Templates every page needs; start-up fails loudly without them.
    static let requiredTemplates = ["layout"] + FixtureRegistry.all.map(\.template)

    public init(templatesDirectory: URL, reloadTemplates: Bool = false) async throws {
        self.templatesDirectory = templatesDirectory
        self.reloadTemplates = reloadTemplates
        self.library = try await MustacheLibrary(directory: templatesDirectory.path)
        for name in Set(Self.requiredTemplates) where library.getTemplate(named: name) == nil {
            throw LoadError.missingTemplate(name, directory: templatesDirectory.path)
        }
    }

    /// The page or component as the bytes of a response body.
    public func htmlBuffer(_ value: some Renderable) -> ByteBuffer {
        reloadTemplates ? ByteBuffer(string: mustacheHTML(value)) : value.compiledHTMLBuffer()
    }

    /// The same bytes as a string.
    public func html(_ value: some Renderable) -> String {
        String(buffer: htmlBuffer(value))
    }

    /// The page or component as swift-mustache renders it, reading the templates again in
    /// development.
    public func mustacheHTML(_ value: some Renderable) -> String {
        let library = reloadTemplates ? reloadedLibrary() : self.library
        guard let html = library.render(value, withTemplate: type(of: value).template) else {
            // Only reachable in development, when a template was deleted after start-up.
            return "Template \(type(of: value).template) is missing."
        }
        return html
    }

    /// The response for `page`: its view model as JSON when the request asks for JSON first,
    /// else the rendered HTML.
    public func response(_ page: some Page, status: HTTPResponse.Status = .ok, for request: Request) -> Response {
        if request.prefersJSON {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(page)) ?? Data("{}".utf8)
            return Response(
                status: status,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: htmlBuffer(page))
        )
    }

    private func reloadedLibrary() -> MustacheLibrary {
        var templates: [String: MustacheTemplate] = [:]
        let root = templatesDirectory.standardizedFileURL.path
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
