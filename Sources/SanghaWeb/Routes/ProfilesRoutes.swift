import Hummingbird
import SanghaCore
import SanghaViewModels

/// The profiles pages: `/profiles`, the editor `/profiles/{id}`, the sitting page
/// `/profiles/{id}/sit`, and their form posts; the export of every profile is a download.
/// Another person's profile is not there (404, like a missing one).
struct ProfilesRoutes: AreaRoutes {
    let services: RowServices
    static func notFound(_ words: Words) -> String { words.profilesNoSuchProfile }

    struct CreateForm: Decodable, Sendable {
        var name: String?
    }

    static let rows: [PageRow] = [
        .get(
            Paths.profiles, query: ListPage.self,
            notFound: { words, list in words.profilesNoListPage(page: words.number(list.page)) }
        ) {
            await ProfilesListViewModel.load(page: $0.input.page, from: try $0.profiles(), context: $0.page)
        },
        .post(Paths.profiles, form: CreateForm.self, notFound: notFound) {
            await ProfilesListViewModel.create(name: $0.input.name, in: try $0.profiles(), context: $0.page)
        },
        .get(Paths.profile, notFound: notFound) {
            await ProfileEditorViewModel.load(id: $0.values, from: try $0.profiles(), context: $0.page)
        },
        .post(Paths.profile, form: ProfileFormInput.self, notFound: notFound) {
            await ProfileEditorViewModel.submit(id: $0.values, $0.input, to: try $0.profiles(), context: $0.page)
        },
        .post(Paths.deleteProfile, notFound: notFound) {
            await ProfilesListViewModel.delete(id: $0.values, in: try $0.profiles(), words: $0.page.words)
        },
        .get(Paths.sit, notFound: notFound) {
            await SittingViewModel.load(id: $0.values, from: try $0.profiles(), context: $0.page)
        },
    ]

    func addHandWritten(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.profilesExport, use: export)
    }

    /// Every profile, by name, as a JSON array of their names and segments.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        let profiles = dependencies.data.profiles(of: try context.person().id)
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
}
