import FriendServiceClient
import SanghaCore
import SanghaTestSupport
import Synchronization
import Testing

@Suite("Single flight for friend lists")
struct CoalescingFriendServiceTests {
    final class Counter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A service whose list takes `delay` and counts its calls.
    static func slowService(delay: Duration, calls: Counter) -> FakeFriendService {
        FakeFriendService(
            list: {
                calls.increment()
                try? await Task.sleep(for: delay)
                return [.jane]
            },
            add: { draft in
                Friend(id: 2, firstname: draft.firstname, lastname: draft.lastname, phonenumber: draft.phonenumber)
            }
        )
    }

    @Test("Concurrent list requests share one call")
    func coalesces() async throws {
        let calls = Counter()
        let service = CoalescingFriendService(Self.slowService(delay: .milliseconds(300), calls: calls))
        let lists = try await withThrowingTaskGroup(of: [Friend].self) { group in
            for _ in 0..<20 { group.addTask { try await service.listFriends() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(lists.count == 20)
        #expect(lists.allSatisfy { $0 == [.jane] })
        #expect(calls.value == 1)
        // Once it has answered, the next request is a new call: nothing is cached.
        _ = try await service.listFriends()
        #expect(calls.value == 2)
    }

    @Test("A list asked for after a write does not join a call that started before it")
    func freshAfterWrite() async throws {
        let calls = Counter()
        let service = CoalescingFriendService(Self.slowService(delay: .milliseconds(400), calls: calls))
        let before = Task { try await service.listFriends() }
        try await Task.sleep(for: .milliseconds(100))
        _ = try await service.addFriend(FriendDraft(firstname: "Ken", lastname: "Sato", phonenumber: "123"))
        async let after = service.listFriends()
        async let alongside = service.listFriends()
        _ = try await (after, alongside, before.value)
        // The old call, and one new call shared by the two requests made after the write.
        #expect(calls.value == 2)
    }

    @Test("A failure reaches every request that shared the call")
    func sharedFailure() async {
        let service = CoalescingFriendService(FakeFriendService.failing(.server(status: 503)))
        await withTaskGroup(of: FriendServiceError.Reason?.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    do {
                        _ = try await service.listFriends()
                        return nil
                    } catch let error as FriendServiceError {
                        return error.reason
                    } catch {
                        return nil
                    }
                }
            }
            for await reason in group { #expect(reason == .server(status: 503)) }
        }
    }
}
