import Foundation
import Hummingbird
import Mustache
import SanghaViewModels
import SanghaWeb

/// `GET /_gallery`: every fixture, rendered with the templates as they are on disk now. Only
/// `sangha-gallery` (`make gallery`) adds these routes: neither they nor the fixtures are part
/// of the app.
public struct GalleryRoutes: Sendable {
    let fixtures: [Fixture]
    let renderer: PageRenderer
    let index: MustacheLibrary

    /// `templates`: the app's templates on disk, whose layout the index page uses.
    public init(fixtures: [Fixture], renderer: PageRenderer, templates: URL) async throws {
        self.fixtures = fixtures
        self.renderer = renderer
        var library = try await MustacheLibrary(directory: templates.path)
        library.register(try MustacheTemplate(string: Self.indexTemplate), named: "gallery")
        self.index = library
    }

    public func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("_gallery", use: index)
        router.get("_gallery/{name}", use: fixture)
    }

    /// The index: the app's layout around a list of the fixtures.
    struct Index {
        struct Entry {
            let name: String
            let template: String
            let url: String
        }

        let layout: LayoutViewModel
        let entries: [Entry]
    }

    static let indexTemplate = """
        {{<layout}}
        {{$content}}
        <h1>Gallery</h1>
        <p>Every fixture view model, rendered with the templates as they are on disk now. Edit a template and reload.</p>
        <ul class="gallery">
          {{#entries}}
          <li><a href="{{url}}">{{name}}</a> <code>{{template}}</code></li>
          {{/entries}}
        </ul>
        {{/content}}
        {{/layout}}
        """

    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = Index(
            layout: LayoutViewModel(title: "Gallery", section: nil, context: context.page),
            entries: fixtures.map { Index.Entry(name: $0.name, template: $0.template, url: "/_gallery/\($0.name)") })
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: index.render(page, withTemplate: "gallery") ?? "")))
    }

    @Sendable func fixture(_ request: Request, context: AppRequestContext) async throws -> Response {
        let name = context.parameters.get("name") ?? ""
        guard let fixture = fixtures.first(where: { $0.name == name }) else {
            throw HTTPError(.notFound, message: "There is no fixture named \(name).")
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: renderer.htmlBuffer(fixture.value))
        )
    }
}
