import Foundation
import FriendServiceClient
import FriendServiceServer
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaTestSupport
import Synchronization
import Testing

/// The client against the reference FriendService over real HTTP on a loopback port.
@Suite("URLSession FriendService client")
struct URLSessionFriendServiceTests {
    static let jane = FriendDraft(firstname: "Jane", lastname: "Doe", phonenumber: "+15550100")

    /// Starts the reference service on a free port and hands the test a client for it.
    func withReferenceService(
        serverToken: String? = nil,
        clientToken: String? = nil,
        _ test: @Sendable (URLSessionFriendService) async throws -> Void
    ) async throws {
        let router = FriendServiceApplication.buildRouter(store: try .inMemory(), token: serverToken)
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let service = URLSessionFriendService(
                // A generous timeout: these tests are about answers, and a busy full run has kept
                // the in-process server from answering for more than the default 3 s.
                configuration: .init(
                    baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: clientToken, timeout: .seconds(30))
            )
            try await test(service)
        }
    }

    /// Starts a server whose routes answer what `configure` says, for answers the reference
    /// service never gives.
    func withServer(
        _ configure: (Router<BasicRequestContext>) -> Void,
        _ test: @Sendable (URLSessionFriendService) async throws -> Void
    ) async throws {
        let router = Router()
        configure(router)
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            try await test(
                URLSessionFriendService(
                    configuration: .init(baseURL: URL(string: "http://127.0.0.1:\(port)")!, timeout: .seconds(30))))
        }
    }

    /// The reason `call` failed with; nil (and a recorded issue) when it succeeded.
    func failureReason(_ call: () async throws(FriendServiceError) -> Void) async -> FriendServiceError.Reason? {
        do {
            try await call()
            Issue.record("expected a failure, the call succeeded")
            return nil
        } catch {
            return error.reason
        }
    }

    func expectReason(_ expected: FriendServiceError.Reason, _ call: () async throws(FriendServiceError) -> Void) async
    {
        #expect(await failureReason(call) == expected)
    }

    @Test("list, add, update and delete round-trip through the service")
    func roundTrip() async throws {
        try await withReferenceService { service in
            let before = try await service.listFriends()
            #expect(before.isEmpty)
            let added = try await service.addFriend(Self.jane)
            #expect(added == Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "+15550100"))
            let updated = try await service.updateFriend(
                id: 1,
                with: FriendDraft(firstname: "Janet", lastname: "Doe", phonenumber: "123")
            )
            #expect(updated.fullName == "Janet Doe")
            let listed = try await service.listFriends()
            #expect(listed == [updated])
            try await service.deleteFriend(id: 1)
            let after = try await service.listFriends()
            #expect(after.isEmpty)
        }
    }

    @Test("A list is decoded again whenever the service's answer changes, never served stale")
    func changedList() async throws {
        let body = Mutex(#"[{"id":1,"firstname":"Jane","lastname":"Doe","phonenumber":"1"}]"#)
        try await withServer({ router in
            router.get("listFriends") { _, _ in body.withLock { $0 } }
        }) { service in
            let jane = Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "1")
            let first = try await service.listFriends()
            let again = try await service.listFriends()
            #expect(first == [jane] && again == [jane])
            body.withLock { $0 = #"[{"id":2,"firstname":"Ann","lastname":"Lee","phonenumber":"2"}]"# }
            let changed = try await service.listFriends()
            #expect(changed == [Friend(id: 2, firstname: "Ann", lastname: "Lee", phonenumber: "2")])
            body.withLock { $0 = "[" }
            let reason = await failureReason { () throws(FriendServiceError) in _ = try await service.listFriends() }
            #expect(reason?.isDecoding == true, "got \(String(describing: reason))")
            body.withLock { $0 = "[]" }
            let emptied = try await service.listFriends()
            #expect(emptied.isEmpty)
        }
    }

    @Test("400 becomes .invalid with the service's reason")
    func invalid() async throws {
        try await withReferenceService { service in
            await expectReason(.invalid("Phone number must be 3 to 20 digits, optionally starting with +.")) {
                () throws(FriendServiceError) in
                _ = try await service.addFriend(FriendDraft(firstname: "Jane", lastname: "Doe", phonenumber: "1"))
            }
        }
    }

    @Test("404 becomes .notFound for update and delete")
    func notFound() async throws {
        try await withReferenceService { service in
            await expectReason(.notFound) { () throws(FriendServiceError) in
                _ = try await service.updateFriend(id: 9, with: Self.jane)
            }
            await expectReason(.notFound) { () throws(FriendServiceError) in try await service.deleteFriend(id: 9) }
        }
    }

    @Test("The token is sent as a bearer token; without it or with a wrong one: .unauthorized")
    func token() async throws {
        try await withReferenceService(serverToken: "s3cret", clientToken: "s3cret") { service in
            let friends = try await service.listFriends()
            #expect(friends.isEmpty)
        }
        try await withReferenceService(serverToken: "s3cret", clientToken: nil) { service in
            await expectReason(.unauthorized) { () throws(FriendServiceError) in _ = try await service.listFriends() }
        }
        try await withReferenceService(serverToken: "s3cret", clientToken: "wrong") { service in
            await expectReason(.unauthorized) { () throws(FriendServiceError) in
                _ = try await service.addFriend(Self.jane)
            }
        }
    }

    @Test("5xx becomes .server with the status")
    func serverError() async throws {
        try await withServer({ router in
            router.get("listFriends") { _, _ -> Response in Response(status: .serviceUnavailable) }
        }) { service in
            await expectReason(.server(status: 503)) { () throws(FriendServiceError) in
                _ = try await service.listFriends()
            }
        }
    }

    @Test("A cookie the service sets is never sent back: the API speaks by bearer token alone")
    func noCookies() async throws {
        let cookies = Mutex<[String?]>([])
        try await withServer({ router in
            router.get("listFriends") { request, _ -> Response in
                cookies.withLock { $0.append(request.headers[.cookie]) }
                var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "[]")))
                response.headers[.setCookie] = "session=abc; Path=/"
                return response
            }
        }) { service in
            _ = try await service.listFriends()
            _ = try await service.listFriends()
        }
        #expect(cookies.withLock { $0 } == [nil, nil])
    }

    @Test("Garbage instead of JSON becomes .decoding, never a crash")
    func garbage() async throws {
        try await withServer({ router in
            router.get("listFriends") { _, _ in "<html>not json</html>" }
            router.post("addFriend") { _, _ in #"{"id":"one"}"# }
        }) { service in
            let listReason = await failureReason { () throws(FriendServiceError) in _ = try await service.listFriends()
            }
            #expect(listReason?.isDecoding == true, "got \(String(describing: listReason))")
            let addReason = await failureReason { () throws(FriendServiceError) in
                _ = try await service.addFriend(Self.jane)
            }
            #expect(addReason?.isDecoding == true, "got \(String(describing: addReason))")
        }
    }

    @Test("Nothing listening: .transport")
    func refused() async throws {
        let port = try SilentServer.freePort()
        let service = URLSessionFriendService(configuration: .init(baseURL: URL(string: "http://127.0.0.1:\(port)")!))
        let reason = await failureReason { () throws(FriendServiceError) in _ = try await service.listFriends() }
        #expect(reason == .transport("Could not connect to the FriendService."))
    }

    @Test("A server that never answers costs the timeout, then .transport")
    func timeout() async throws {
        let server = try SilentServer()
        let service = URLSessionFriendService(
            configuration: .init(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, timeout: .milliseconds(500))
        )
        let clock = ContinuousClock()
        let start = clock.now
        let reason = await failureReason { () throws(FriendServiceError) in _ = try await service.listFriends() }
        #expect(reason == .transport("The request timed out."))
        let elapsed = clock.now - start
        // Honoured: not before the timeout, and not much after (a generous bound for a busy machine).
        #expect(elapsed >= .milliseconds(450))
        #expect(elapsed < .seconds(30))
        withExtendedLifetime(server) {}
    }
}

extension FriendServiceError.Reason {
    var isDecoding: Bool {
        if case .decoding = self { return true }
        return false
    }
}
