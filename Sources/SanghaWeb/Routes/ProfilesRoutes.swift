import Hummingbird
import SanghaCore
import SanghaViewModels

/// The profiles pages: `/profiles`, the editor `/profiles/{id}`, the sitting page
/// `/profiles/{id}/sit`, and their form posts.
struct ProfilesRoutes {
    let profiles: any ProfileRepository
    let renderer: PageRenderer
    let maxFormSize: Int
    static let notFound = "There is no profile with this id."

    struct CreateForm: Decodable {
        var name: String?
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group("profiles")
            .get(use: list)
            .post(use: create)
            .get("{id}", use: edit)
            .get("{id}/sit", use: sit)
            .post("{id}", use: save)
            .post("{id}/delete", use: delete)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try request.pageNumber()
        let outcome = await ProfilesListViewModel.load(page: page, from: profiles, context: context.page)
        return try renderer.response(outcome, for: request, notFound: "The profiles list has no page \(page).")
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let form = try await request.decodeForm(CreateForm.self, limit: maxFormSize)
        let outcome = await ProfilesListViewModel.create(name: form.name, in: profiles, context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("profile")
        let outcome = await ProfileEditorViewModel.load(id: id, from: profiles, context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func sit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("profile")
        let outcome = await SittingViewModel.load(id: id, from: profiles, context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("profile")
        var request = request
        let input = try await request.decodeForm(ProfileFormInput.self, limit: maxFormSize)
        let outcome = await ProfileEditorViewModel.submit(id: id, input, to: profiles, context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("profile")
        return .redirect(await ProfilesListViewModel.delete(id: id, in: profiles))
    }
}
