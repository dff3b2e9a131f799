import Hummingbird
import SanghaCore
import SanghaViewModels

/// The friends pages: `/friends` (`?q=` filters), `/friends/new`, `/friends/{id}/edit`, and their
/// form posts. Lists are read through the person's friends repository (the service, with the
/// last list saved for when it fails); writes go to their FriendService alone.
struct FriendsRoutes: AreaRoutes {
    let services: RowServices
    static func notFound(_ words: Words) -> String { words.friendsNotFound }

    /// The list's query: a search and a page.
    struct ListQuery: Decodable, Sendable {
        var q: String?
        var page: Int { listPage.page }
        private let listPage: ListPage

        init(from decoder: any Decoder) throws {
            q = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .q)
            listPage = try ListPage(from: decoder)
        }

        private enum CodingKeys: String, CodingKey { case q }
    }

    /// The body of the delete button's form: the row's name, for the messages.
    struct DeleteForm: Decodable, Sendable {
        var fullName: String?
    }

    static let rows: [PageRow] = [
        .get(
            Paths.friends, query: ListQuery.self,
            notFound: { words, list in words.friendsNoListPage(page: words.number(list.page)) }
        ) {
            let person = try $0.person()
            let (cache, words) = ($0.dependencies.friendServices.entry(for: person).rows, $0.page.words)
            return await FriendsListViewModel.load(
                from: try $0.friends(), query: $0.input.q, page: $0.input.page, context: $0.page,
                rows: { cache.rows(for: $0, words: words) })
        },
        .get(Paths.newFriend) { LoadOutcome.page(FriendFormViewModel(mode: .add, context: $0.page)) },
        .post(Paths.friends, form: FriendFormInput.self, notFound: notFound) {
            await FriendFormViewModel.submit($0.input, mode: .add, to: try $0.friendService(), context: $0.page)
        },
        .get(Paths.editFriend, notFound: notFound) {
            await FriendFormViewModel.loadEdit(id: $0.values, from: try $0.friendService(), context: $0.page)
        },
        .post(Paths.friend, form: FriendFormInput.self, notFound: notFound) {
            await FriendFormViewModel.submit(
                $0.input, mode: .update(id: $0.values), to: try $0.friendService(), context: $0.page)
        },
        .post(Paths.deleteFriend, form: DeleteForm.self, notFound: notFound) {
            await FriendDeletion.submit(
                id: $0.values, fullName: $0.input.fullName, to: try $0.friendService(), words: $0.page.words)
        },
    ]
}
