import Hummingbird
import SanghaCore
import SanghaViewModels

/// The friends pages: `/friends`, `/friends/new`, `/friends/{id}/edit`, and their form posts.
struct FriendsRoutes {
    let dependencies: Dependencies
    let renderer: PageRenderer
    let maxFormSize: Int
    static let notFound = "There is no friend with this id."

    /// The body of the delete button's form: the row's name, for the messages.
    struct DeleteForm: Decodable {
        var fullName: String?
    }

    /// The signed-in person's FriendService (with their token); lists are read through their
    /// repository (with the saved fallback), writes go to the service alone.
    func friends(_ context: AppRequestContext) throws -> any FriendService {
        dependencies.friendServices.service(for: try context.person())
    }

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.friends, use: list)
        router.post(Paths.friends, use: create)
        router.get(Paths.newFriend, use: new)
        router.get(Paths.editFriend, use: edit)
        router.post(Paths.friend, use: update)
        router.post(Paths.deleteFriend, use: delete)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try request.pageNumber()
        let person = try context.person()
        let outcome = await FriendsListViewModel.load(
            from: dependencies.friends(of: person),
            query: request.uri.queryParameters["q"].map(String.init),
            page: page,
            context: context.page,
            rows: dependencies.friendServices.entry(for: person).rows.rows
        )
        return try renderer.response(outcome, for: request, notFound: "The friends list has no page \(page).")
    }

    @Sendable func new(_ request: Request, context: AppRequestContext) async throws -> Response {
        try renderer.response(FriendFormViewModel(mode: .add, context: context.page), for: request)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await request.decodeForm(FriendFormInput.self, limit: maxFormSize)
        let outcome = await FriendFormViewModel.submit(
            input, mode: .add, to: try friends(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.editFriend.value(in: context, notFound: Self.notFound)
        let outcome = await FriendFormViewModel.loadEdit(id: id, from: try friends(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.friend.value(in: context, notFound: Self.notFound)
        let input = try await request.decodeForm(FriendFormInput.self, limit: maxFormSize)
        let outcome = await FriendFormViewModel.submit(
            input, mode: .update(id: id), to: try friends(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.deleteFriend.value(in: context, notFound: Self.notFound)
        let form = try await request.decodeForm(DeleteForm.self, limit: maxFormSize)
        return renderer.redirect(await FriendDeletion.submit(id: id, fullName: form.fullName, to: try friends(context)))
    }
}
