import Foundation
import SanghaCore
import SanghaTestSupport
import SanghaViewModels
import Synchronization
import Testing

@Suite("Friends repository: remote, with the last list saved")
struct FriendsRepositoryTests {
    static let noon = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("A list from the service is saved, with when")
    func savesLiveList() async throws {
        let storage = InMemoryFriendListStorage()
        let repository = FriendsRepository(
            remote: FakeFriendService.listing([.jane]), storage: storage, now: { Self.noon })
        #expect(try await repository.listFriends() == .live([.jane]))
        #expect(try await storage.load() == SavedFriendList(friends: [.jane], savedAt: Self.noon))
    }

    @Test("When the service fails, the saved list comes back with the failure")
    func fallsBack() async throws {
        let saved = SavedFriendList(friends: [.jane, .kenji], savedAt: Self.noon)
        let repository = FriendsRepository(
            remote: FakeFriendService.failing(.server(status: 500)),
            storage: InMemoryFriendListStorage(saved)
        )
        #expect(try await repository.listFriends() == .saved(saved, failure: FriendServiceError(.server(status: 500))))
    }

    @Test("When the service fails and nothing was saved, the failure stands")
    func nothingSaved() async {
        let repository = FriendsRepository(
            remote: FakeFriendService.failing(.unauthorized),
            storage: InMemoryFriendListStorage()
        )
        do {
            _ = try await repository.listFriends()
            Issue.record("expected the failure")
        } catch {
            #expect(error.reason == .unauthorized)
        }
    }

    @Test("The friends page shows the saved rows under the error message, marked with when")
    func pageShowsSavedList() async {
        let repository = FriendsRepository(
            remote: FakeFriendService.failing(.transport("timed out")),
            storage: InMemoryFriendListStorage(SavedFriendList(friends: [.jane, .kenji], savedAt: Self.noon))
        )
        let page = await FriendsListViewModel.load(
            from: repository,
            formToken: "token",
            timeZone: TimeZone(identifier: "UTC")!
        )
        #expect(page.rows.map(\.fullName) == ["Jane Doe", "Kenji Satō"])
        #expect(page.errorMessage == "Loading failed, check network connection")
        #expect(page.savedNotice == "Showing the list saved on 18 Nov 2026 at 11:06.")
        let search = await FriendsListViewModel.load(from: repository, query: "kenji", formToken: "token")
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

@Suite("Friends repository: saving")
struct FriendsRepositorySavingTests {
    final class CountingStorage: FriendListStorage {
        let inner = InMemoryFriendListStorage()
        let saves = Mutex(0)
        func save(_ friends: [Friend], at date: Date) async throws {
            saves.withLock { $0 += 1 }
            try await inner.save(friends, at: date)
        }
        func load() async throws -> SavedFriendList? { try await inner.load() }
    }

    @Test("An unchanged list is written again only after the refresh interval; a changed one at once")
    func throttle() async throws {
        let clock = Mutex(Date(timeIntervalSince1970: 1_795_000_000))
        let friends = Mutex<[Friend]>([.jane])
        let storage = CountingStorage()
        let repository = FriendsRepository(
            remote: FakeFriendService(list: { friends.withLock { $0 } }),
            storage: storage,
            now: { clock.withLock { $0 } }
        )
        _ = try await repository.listFriends()
        _ = try await repository.listFriends()
        #expect(storage.saves.withLock { $0 } == 1)
        friends.withLock { $0 = [.jane, .kenji] }
        _ = try await repository.listFriends()
        #expect(storage.saves.withLock { $0 } == 2)
        clock.withLock { $0 += FriendsRepository.refreshInterval }
        _ = try await repository.listFriends()
        #expect(storage.saves.withLock { $0 } == 3)
        #expect(try await storage.load()?.savedAt == clock.withLock { $0 })
    }
}
