import Hummingbird
import SanghaViewModels

/// `GET /_gallery`: every fixture, rendered with the templates as they are on disk now. Only
/// `sangha-gallery` (`make gallery`) adds these routes: the fixtures are not part of the app.
public struct GalleryRoutes: Sendable {
    let fixtures: [Fixture]
    let renderer: PageRenderer

    public init(fixtures: [Fixture], renderer: PageRenderer) {
        self.fixtures = fixtures
        self.renderer = renderer
    }

    public func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("_gallery", use: index)
        router.get("_gallery/{name}", use: fixture)
    }

    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = GalleryViewModel(fixtures: fixtures.map { ($0.name, $0.template) }, context: context.page)
        return try renderer.response(page, for: request)
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
