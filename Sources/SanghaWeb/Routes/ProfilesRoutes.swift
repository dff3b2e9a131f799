import Hummingbird
import SanghaCore
import SanghaViewModels

/// The profiles pages: `/profiles`, the editor `/profiles/{id}`, the sitting page
/// `/profiles/{id}/sit`, and their form posts.
struct ProfilesRoutes {
    let data: any PersonalData
    let renderer: PageRenderer
    let maxFormSize: Int
    static let notFound = "There is no profile with this id."

    struct CreateForm: Decodable {
        var name: String?
    }

    /// The signed-in person's profiles: another's are not there (404, like a missing one).
    func profiles(_ context: AppRequestContext) throws -> any ProfileRepository {
        data.profiles(of: try context.person().id)
    }

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.profiles, use: list)
        router.post(Paths.profiles, use: create)
        router.get(Paths.profilesExport, use: export)
        router.get(Paths.profile, use: edit)
        router.get(Paths.sit, use: sit)
        router.post(Paths.profile, use: save)
        router.post(Paths.deleteProfile, use: delete)
    }

    /// Every profile, by name, as a JSON array of their names and segments.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        let profiles = try profiles(context)
        return try await Download(
            fileName: PracticeLogExport.fileName(
                "profiles", extension: "json", now: context.page.now, timeZone: context.page.timeZone),
            contentType: "application/json; charset=utf-8", start: PracticeLogExport.jsonStart,
            separator: PracticeLogExport.jsonSeparator, end: PracticeLogExport.jsonEnd,
            line: PracticeLogExport.jsonObject(_:),
            // (By offset: a person's profiles are a few, not a log of years.)
            page: { _, count in try await profiles.list(limit: PracticeLogExport.pageSize, offset: count).profiles }
        ).response()
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try request.pageNumber()
        let outcome = await ProfilesListViewModel.load(page: page, from: try profiles(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: "The profiles list has no page \(page).")
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(CreateForm.self, limit: maxFormSize)
        let outcome = await ProfilesListViewModel.create(
            name: form.name, in: try profiles(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func edit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.profile.value(in: context, notFound: Self.notFound)
        let outcome = await ProfileEditorViewModel.load(id: id, from: try profiles(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func sit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.sit.value(in: context, notFound: Self.notFound)
        let outcome = await SittingViewModel.load(id: id, from: try profiles(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.profile.value(in: context, notFound: Self.notFound)
        let input = try await request.decodeForm(ProfileFormInput.self, limit: maxFormSize)
        let outcome = await ProfileEditorViewModel.submit(
            id: id, input, to: try profiles(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.deleteProfile.value(in: context, notFound: Self.notFound)
        return renderer.redirect(await ProfilesListViewModel.delete(id: id, in: try profiles(context)))
    }
}
