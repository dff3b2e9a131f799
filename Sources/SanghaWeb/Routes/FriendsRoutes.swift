import Hummingbird
import SanghaCore
import SanghaViewModels

/// The friends pages: `/friends`, `/friends/new`, `/friends/{id}/edit`, and their form posts.
struct FriendsRoutes {
    /// Lists read through it (with the saved fallback); writes go to its remote service alone.
    let repository: FriendsRepository
    var friends: any FriendService { repository.remote }
    let renderer: PageRenderer
    let maxFormSize: Int
    /// The rows of the list last shown, for the pages that show the same list.
    let rows = FriendRowsMemo()

    /// The body of the delete button's form: the row's name, for the messages.
    struct DeleteForm: Decodable {
        var fullName: String?
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        router.group("friends")
            .get(use: list)
            .post(use: create)
            .get("new", use: new)
            .get("{id}/edit", use: edit)
            .post("{id}", use: update)
            .post("{id}/delete", use: delete)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters["q"].map(String.init)
        let page = await FriendsListViewModel.load(
            from: repository,
            query: query,
            formToken: context.formToken,
            flash: context.flash,
            rows: rows
        )
        return renderer.response(page, for: request)
    }

    @Sendable func new(_ request: Request, context: AppRequestContext) async throws -> Response {
        renderer.response(FriendFormViewModel(mode: .add, formToken: context.formToken), for: request)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let input = try await request.decodeForm(FriendFormInput.self, limit: maxFormSize)
        return respond(
            to: await FriendFormViewModel.submit(input, mode: .add, to: friends, formToken: context.formToken),
            request: request)
    }

    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("friend")
        switch await FriendFormViewModel.loadEdit(id: id, from: friends, formToken: context.formToken) {
        case .form(let form): return renderer.response(form, for: request)
        case .failed(let page): return renderer.response(page, status: .badGateway, for: request)
        case .notFound: throw HTTPError(.notFound, message: "There is no friend with this id.")
        }
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("friend")
        var request = request
        let input = try await request.decodeForm(FriendFormInput.self, limit: maxFormSize)
        return respond(
            to: await FriendFormViewModel.submit(
                input,
                mode: .update(id: id),
                to: friends,
                formToken: context.formToken
            ), request: request)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("friend")
        var request = request
        let form = try await request.decodeForm(DeleteForm.self, limit: maxFormSize)
        let outcome = await FriendDeletion.submit(id: id, fullName: form.fullName, to: friends)
        return .redirect(to: outcome.redirectTo, flash: outcome.flash)
    }

    private func respond(to outcome: FriendFormViewModel.Outcome, request: Request) -> Response {
        switch outcome {
        case .saved(let url, let flash): .redirect(to: url, flash: flash)
        case .invalid(let form): renderer.response(form, status: .unprocessableContent, for: request)
        case .failed(let form, let status): renderer.response(form, status: .init(code: status), for: request)
        }
    }
}
