import Foundation
import SanghaCore
import SanghaTestSupport
import SanghaViewModels
import Testing

@testable import SanghaWeb

extension PseudoLanguageTests {
    /// The texts of `page` outside the catalog, once what people typed (`data`: names, phone
    /// numbers, a search) is taken out.
    static func skippedTexts(_ page: some Page, data: [String]) -> [String] {
        let attributes =
            #"\s(?:data-confirm|data-required-message|data-too-long-message|data-not-allowed-message)="([^"]*)""#
        let html = String(buffer: page.compiledHTMLBuffer())
        let expression = try! NSRegularExpression(pattern: attributes)
        let messages = expression.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]) }
        }
        return (texts(html) + messages).compactMap { text in
            skipped(data.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "") })
        }
    }

    static let friends = [
        Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "+15550100"),
        Friend(id: 2, firstname: "Kenji", lastname: "Sato", phonenumber: "0312345678"),
    ]
    static let friendData = ["Jane Doe", "Kenji Sato", "+15550100", "0312345678", "zed"]

    @Test("The friends list says everything through the catalog, in each of its states")
    func friendsList() async throws {
        let context = Self.context
        let words = context.words
        let rows = FriendsListViewModel.makeRows(Self.friends, words: words)
        let saved = FriendsListViewModel.savedState(
            SavedFriendList(friends: Self.friends, savedAt: context.now), failure: FriendServiceError(.notFound),
            query: "", timeZone: .gmt, words: words)
        var flash = context
        flash.flash = .error(
            title: FriendOperation.delete(fullName: "Jane Doe").failureTitle(words),
            message: FriendOperation.delete(fullName: "").message(for: .unauthorized, words: words))
        let pages = [
            FriendsListViewModel(state: .rows(rows), context: context),
            FriendsListViewModel(state: .rows(rows), context: flash),
            FriendsListViewModel(state: .error(words.friendsLoadFailed), context: context),
            FriendsListViewModel(state: .empty(words.friendsNoData), context: context),
            FriendsListViewModel(state: .empty(words.friendsNoMatch(query: "zed")), query: "zed", context: context),
            FriendsListViewModel(state: saved, context: context),
        ]
        for page in pages {
            #expect(Self.skippedTexts(page, data: Self.friendData) == [])
        }
        let searched = try #require(
            await FriendsListViewModel.load(
                from: FriendsRepository(remote: FakeFriendService.listing(Self.friends)), query: "zed",
                context: context
            ).shownPage)
        #expect(searched.emptyMessage == words.friendsNoMatch(query: "zed"))
        #expect(Self.skippedTexts(searched, data: Self.friendData) == [])
    }

    @Test("The friend form says everything through the catalog: adding, editing, its messages and its alerts")
    func friendForm() async throws {
        let context = Self.context
        let jane = FriendFormInput(friend: Self.friends[0])
        let invalid = FriendFormInput(firstname: "J4ne", lastname: "", phonenumber: "12")
        let tooLong = FriendFormInput(firstname: String(repeating: "a", count: 60), lastname: "Doe", phonenumber: "")
        var pages = [
            FriendFormViewModel(mode: .add, context: context),
            FriendFormViewModel(mode: .update(id: 1), context: context, input: jane),
        ]
        for input in [invalid, tooLong] {
            guard
                case .invalid(let page) = await FriendFormViewModel.submit(
                    input, mode: .add, to: FakeFriendService.listing([]), context: context)
            else { Issue.record("The form was not refused"); continue }
            pages.append(page)
        }
        for (mode, reason) in [
            (FriendFormViewModel.Mode.add, FriendServiceError.Reason.unauthorized), (.add, .notFound),
            (.update(id: 1), .unauthorized), (.update(id: 1), .notFound), (.update(id: 1), .transport("x")),
        ] {
            switch await FriendFormViewModel.submit(
                jane, mode: mode, to: FakeFriendService.failing(reason), context: context)
            {
            case .failed(let page, _), .invalid(let page): pages.append(page)
            default: Issue.record("The service's failure was not shown")
            }
        }
        let data = Self.friendData + ["J4ne", "12", String(repeating: "a", count: 60), "Doe"]
        for page in pages {
            #expect(Self.skippedTexts(page, data: data) == [])
        }
        guard
            case .failed(let error, _) = await FriendFormViewModel.loadEdit(
                id: 1, from: FakeFriendService.failing(.transport("x")), context: context)
        else { Issue.record("The failed load has no page"); return }
        // (Its link home is the layout's.)
        #expect([error.heading, error.message].compactMap(Self.skipped) == [])
    }

    @Test(
        "The home page's friends panel says the FriendService's failure and the saved list's age in the page's language"
    )
    func friendsPanelFailing() async {
        struct Kept: FriendListStorage {
            let list: SavedFriendList
            func save(_ friends: [Friend], at date: Date) async throws {}
            func load() async throws -> SavedFriendList? { list }
        }
        let saved = FriendsRepository(
            remote: FakeFriendService.failing(.transport("x")),
            storage: Kept(list: SavedFriendList(friends: Self.friends, savedAt: Self.context.now)))
        let none = FriendsRepository(remote: FakeFriendService.failing(.unauthorized))
        for repository in [saved, none] {
            let panel = await FriendsPanelViewModel.load(from: repository, context: Self.context)
            let texts = [panel.errorMessage ?? "", panel.savedNotice ?? ""]
            #expect(texts.compactMap(Self.skipped) == [])
        }
    }

    @Test("Adding, saving and removing a friend flash through the catalog")
    func friendFlashes() async throws {
        let words = Self.context.words
        let jane = FriendFormInput(friend: Self.friends[0])
        guard
            case .redirect(let added) = await FriendFormViewModel.submit(
                jane, mode: .add, to: FakeFriendService(add: { _ in Self.friends[0] }), context: Self.context)
        else { Issue.record("Not added"); return }
        #expect(added.flash == .success(words.friendsAdded(name: "Jane Doe")))
        let removed = await FriendDeletion.submit(
            id: 1, fullName: nil, to: FakeFriendService(delete: { _ in }), words: words)
        #expect(removed.flash == .success(words.friendsRemovedUnnamed))
        let failed = await FriendDeletion.submit(
            id: 1, fullName: "Jane Doe", to: FakeFriendService.failing(.notFound), words: words)
        #expect(
            failed.flash
                == .error(title: words.friendsRemoveFailed(name: "Jane Doe"), message: words.friendsRemoveNotFound))
        for text in [words.friendsRemovedUnnamed, words.friendsRemoveFailed(name: "Jane Doe")] {
            #expect(Self.skipped(text.replacingOccurrences(of: "Jane Doe", with: "")) == nil)
        }
    }

    @Test("The friends page in German")
    func friendsInGerman() {
        var context = Self.context
        context.language = .de
        let page = FriendsListViewModel(
            state: .rows(FriendsListViewModel.makeRows(Self.friends, words: context.words)), context: context)
        let html = String(buffer: page.compiledHTMLBuffer())
        #expect(html.contains("Freund hinzufügen"))
        // A Latin name in a German page is not set apart (its direction is the page's); a Hebrew
        // one is, in the text by <bdi>, in an attribute by its isolates.
        #expect(html.contains("aria-label=\"Jane Doe löschen\""))
        #expect(html.contains(#"<span class="item-name">Jane Doe</span>"#))
        let hebrew = FriendsListViewModel(
            state: .rows(
                FriendsListViewModel.makeRows(
                    [Friend(id: 9, firstname: "שרה", lastname: "Cohen", phonenumber: "+15550009")],
                    words: context.words)),
            context: context)
        let hebrewHTML = String(buffer: hebrew.compiledHTMLBuffer())
        #expect(hebrewHTML.contains("aria-label=\"\u{2068}שרה Cohen\u{2069} löschen\""))
        #expect(hebrewHTML.contains(#"<span class="item-name"><bdi>שרה Cohen</bdi></span>"#))
        #expect(html.contains(#"placeholder="Name oder Telefonnummer""#))
        let form = FriendFormViewModel(
            mode: .add, context: context, errors: [.firstname: context.words.friendsFirstNameRequired])
        #expect(String(buffer: form.compiledHTMLBuffer()).contains("Der Vorname fehlt."))
    }
}
