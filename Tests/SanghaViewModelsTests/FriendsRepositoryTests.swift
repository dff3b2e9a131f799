import Foundation
import SanghaCore
import SanghaFixtures
import SanghaTestSupport
import SanghaViewModels
import Testing

@Suite("Friends repository: remote, with the last list saved")
struct FriendsRepositoryTests {
    static let noon = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("A list from the service is saved, with when")
    func savesLiveList() async throws {
        let storage = try await StoredPerson.make().savedFriends
        let repository = FriendsRepository(
            remote: FakeFriendService.listing([.jane]), storage: storage, now: { Self.noon })
        #expect(try await repository.listFriends() == .live([.jane]))
        #expect(try await storage.load() == SavedFriendList(friends: [.jane], savedAt: Self.noon))
    }

    @Test("When the service fails, the saved list comes back with the failure")
    func fallsBack() async throws {
        let saved = SavedFriendList(friends: [.jane, .kenji], savedAt: Self.noon)
        let storage = try await StoredPerson.make().savedFriends
        try await storage.save(saved.friends, at: saved.savedAt)
        let repository = FriendsRepository(remote: FakeFriendService.failing(.server(status: 500)), storage: storage)
        #expect(try await repository.listFriends() == .saved(saved, failure: FriendServiceError(.server(status: 500))))
    }

    @Test("When the service fails and nothing was saved, the failure stands")
    func nothingSaved() async throws {
        let repository = FriendsRepository(
            remote: FakeFriendService.failing(.unauthorized), storage: try await StoredPerson.make().savedFriends)
        do {
            _ = try await repository.listFriends()
            Issue.record("expected the failure")
        } catch {
            #expect(error.reason == .unauthorized)
        }
    }

    @Test("The friends page shows the saved rows under the error message, marked with when")
    func pageShowsSavedList() async throws {
        let storage = try await StoredPerson.make().savedFriends
        try await storage.save([.jane, .kenji], at: Self.noon)
        let repository = FriendsRepository(remote: FakeFriendService.failing(.transport("timed out")), storage: storage)
        let page = try #require(await FriendsListViewModel.load(from: repository, context: .fixture).shownPage)
        #expect(page.rows.map(\.fullName) == ["Jane Doe", "Kenji Satō"])
        #expect(page.errorMessage == "Loading failed, check network connection")
        #expect(page.savedNotice == "Showing the list saved on 18 Nov 2026 at 11:06.")
        let search = try #require(
            await FriendsListViewModel.load(from: repository, query: "kenji", context: .fixture).shownPage)
        #expect(search.rows.map(\.fullName) == ["Kenji Satō"])
    }

    @Test("The saved time reads in the given time zone")
    func savedTime() {
        #expect(
            SavedTimeFormatter.string(from: Self.noon, timeZone: TimeZone(identifier: "UTC")!) == "18 Nov 2026 at 11:06"
        )
        #expect(
            SavedTimeFormatter.string(from: Self.noon, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
                == "18 Nov 2026 at 20:06"
        )
    }
}
