import Foundation
import SanghaFixtures
import SanghaTestSupport
import SanghaViewModels
import SanghaWeb
import Testing

@Suite("Page renderer")
struct PageRendererTests {
    /// A copy of the templates that a test may edit.
    func copyOfTemplates() throws -> URL {
        let directory = try RepositoryPaths.temporaryDirectory("templates")
        let copy = directory.appendingPathComponent("Templates")
        try FileManager.default.copyItem(at: RepositoryPaths.root.appendingPathComponent("Templates"), to: copy)
        return copy
    }

    @Test("In development, an edited template shows on the next render; in production none is read")
    func reload() async throws {
        let templates = try copyOfTemplates()
        defer { try? FileManager.default.removeItem(at: templates.deletingLastPathComponent()) }
        let development = PageRenderer(
            mustache: try await MustacheTemplates(directory: templates, reload: true), signer: .random())
        let production = PageRenderer.compiled(signer: .random())
        let page = ErrorPageViewModel.notFound(context: .fixture)
        // Before the edit the two render the same page.
        let before = production.html(page)
        #expect(development.html(page) == before)

        let file = templates.appendingPathComponent("Layout/error-page.mustache")
        let edited = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "<h1>{{heading}}</h1>",
            with: "<h1>{{heading}} (Edited on disk)</h1>"
        )
        try edited.write(to: file, atomically: true, encoding: .utf8)
        #expect(
            development.html(page)
                == before.replacingOccurrences(
                    of: "<h1>Page not found</h1>", with: "<h1>Page not found (Edited on disk)</h1>"))
        #expect(production.html(page) == before)
    }

    @Test("A missing template stops the start, naming it")
    func missingTemplate() async throws {
        let templates = try copyOfTemplates()
        defer { try? FileManager.default.removeItem(at: templates.deletingLastPathComponent()) }
        try FileManager.default.removeItem(at: templates.appendingPathComponent("Home/home.mustache"))
        do {
            _ = try await MustacheTemplates(directory: templates)
            Issue.record("expected the start to fail")
        } catch {
            #expect(String(describing: error) == "Template 'Home/home.mustache' is missing from \(templates.path).")
        }
    }
}
