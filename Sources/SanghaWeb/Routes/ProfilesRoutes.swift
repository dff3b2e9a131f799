import Hummingbird
import SanghaCore
import SanghaViewModels

/// The profiles pages: `/profiles`, the editor `/profiles/{id}`, and their form posts.
struct ProfilesRoutes {
    let profiles: any ProfileRepository
    let renderer: PageRenderer
    let maxFormSize: Int

    struct CreateForm: Decodable {
        var name: String?
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group("profiles")
            .get(use: list)
            .post(use: create)
            .get("{id}", use: edit)
            .post("{id}", use: save)
            .post("{id}/delete", use: delete)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        renderer.response(
            await ProfilesListViewModel.load(from: profiles, formToken: context.formToken, flash: context.flash),
            for: request)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let form = try await request.decodeForm(CreateForm.self, limit: maxFormSize)
        switch await ProfilesListViewModel.create(name: form.name, in: profiles, formToken: context.formToken) {
        case .created(let url, let flash): return .redirect(to: url, flash: flash)
        case .invalid(let page): return renderer.response(page, status: .unprocessableContent, for: request)
        case .failed(let page): return renderer.response(page, status: .serviceUnavailable, for: request)
        }
    }

    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("profile")
        switch await ProfileEditorViewModel.load(
            id: id,
            from: profiles,
            formToken: context.formToken,
            flash: context.flash
        ) {
        case .editor(let page): return renderer.response(page, for: request)
        case .failed(let page): return renderer.response(page, status: .serviceUnavailable, for: request)
        case .notFound: throw HTTPError(.notFound, message: "There is no profile with this id.")
        }
    }

    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("profile")
        var request = request
        let input = try await request.decodeForm(ProfileFormInput.self, limit: maxFormSize)
        switch await ProfileEditorViewModel.submit(id: id, input, to: profiles, formToken: context.formToken) {
        case .saved(let url, let flash): return .redirect(to: url, flash: flash)
        case .invalid(let page): return renderer.response(page, status: .unprocessableContent, for: request)
        case .conflict(let page): return renderer.response(page, status: .conflict, for: request)
        case .failed(let page): return renderer.response(page, status: .serviceUnavailable, for: request)
        case .notFound: throw HTTPError(.notFound, message: "There is no profile with this id.")
        }
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("profile")
        let outcome = await ProfilesListViewModel.delete(id: id, in: profiles)
        return .redirect(to: outcome.redirectTo, flash: outcome.flash)
    }
}
