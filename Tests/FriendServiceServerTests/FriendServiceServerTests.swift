import Foundation
import FriendServiceServer
import Hummingbird
import HummingbirdTesting
import SanghaCore
import Testing

@Suite("Reference FriendService")
struct FriendServiceServerTests {
    static let jane = #"{"firstname":"Jane","lastname":"Doe","phonenumber":"+15550100"}"#

    func withService(
        token: String? = nil, store: FriendStore? = nil, _ test: @Sendable (any TestClientProtocol) async throws -> Void
    )
        async throws
    {
        let router = FriendServiceApplication.buildRouter(store: try store ?? .inMemory(), token: token)
        try await Application(router: router).test(.router, test)
    }

    static func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    static func reason(_ response: TestResponse) throws -> String {
        struct Body: Decodable {
            let error: Bool
            let reason: String
        }
        let body = try JSONDecoder().decode(Body.self, from: Data(buffer: response.body))
        #expect(body.error)
        return body.reason
    }

    @Test("An empty service lists []")
    func emptyList() async throws {
        try await withService { client in
            try await client.execute(uri: "/listFriends", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "[]")
            }
        }
    }

    @Test("Add answers the stored friend with its id, and list shows it")
    func addAndList() async throws {
        try await withService { client in
            try await client.execute(uri: "/addFriend", method: .post, body: Self.json(Self.jane)) { response in
                #expect(response.status == .ok)
                let friend = try JSONDecoder().decode(Friend.self, from: Data(buffer: response.body))
                #expect(friend == Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "+15550100"))
            }
            try await client.execute(uri: "/listFriends", method: .get) { response in
                let friends = try JSONDecoder().decode([Friend].self, from: Data(buffer: response.body))
                #expect(friends.map(\.fullName) == ["Jane Doe"])
            }
        }
    }

    @Test(
        "Bad bodies get 400 with a reason, never 5xx",
        arguments: [
            ("not json", "not valid input"),
            (#"{"firstname":"Jane"}"#, "Missing field: lastname, phonenumber."),
            (#"{"firstname":1,"lastname":"Doe","phonenumber":"123"}"#, "Type mismatch"),
            (#"{"firstname":"J4ne","lastname":"Doe","phonenumber":"123"}"#, "First name may contain only letters"),
            (#"{"firstname":"Jane","lastname":"Doe","phonenumber":"12"}"#, "Phone number must be 3 to 20 digits"),
            ("", "not valid input"),
            ("[]", "Type mismatch"),
        ]
    )
    func badAdd(body: String, expected: String) async throws {
        try await withService { client in
            try await client.execute(uri: "/addFriend", method: .post, body: Self.json(body)) { response in
                #expect(response.status == .badRequest)
                let reason = try Self.reason(response)
                #expect(reason.contains(expected))
            }
        }
    }

    @Test("PATCH changes only the fields it names")
    func patch() async throws {
        try await withService { client in
            try await client.execute(uri: "/addFriend", method: .post, body: Self.json(Self.jane)) { _ in }
            try await client.execute(
                uri: "/editFriend/1",
                method: .patch,
                body: Self.json(#"{"phonenumber":"999"}"#)
            ) { response in
                #expect(response.status == .ok)
                let friend = try JSONDecoder().decode(Friend.self, from: Data(buffer: response.body))
                #expect(friend == Friend(id: 1, firstname: "Jane", lastname: "Doe", phonenumber: "999"))
            }
            try await client.execute(uri: "/editFriend/1", method: .patch, body: Self.json(#"{"lastname":""}"#)) {
                response in
                #expect(response.status == .badRequest)
                let reason = try Self.reason(response)
                #expect(reason == "Last name is required.")
            }
        }
    }

    @Test("Unknown and non-numeric ids are 404 for edit and delete")
    func notFound() async throws {
        try await withService { client in
            for uri in ["/editFriend/42", "/editFriend/abc"] {
                try await client.execute(uri: uri, method: .patch, body: Self.json("{}")) { response in
                    #expect(response.status == .notFound)
                    let reason = try Self.reason(response)
                    #expect(reason.hasPrefix("No friend with id"))
                }
                try await client.execute(uri: uri, method: .delete) { response in
                    #expect(response.status == .notFound)
                }
            }
        }
    }

    @Test("Delete answers 200 and the friend is gone; its id is never given out again")
    func deleteNeverReusesIDs() async throws {
        try await withService { client in
            try await client.execute(uri: "/addFriend", method: .post, body: Self.json(Self.jane)) { _ in }
            try await client.execute(uri: "/addFriend", method: .post, body: Self.json(Self.jane)) { _ in }
            try await client.execute(uri: "/editFriend/2", method: .delete) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/addFriend", method: .post, body: Self.json(Self.jane)) { response in
                let friend = try JSONDecoder().decode(Friend.self, from: Data(buffer: response.body))
                #expect(friend.id == 3)
            }
            try await client.execute(uri: "/listFriends", method: .get) { response in
                let friends = try JSONDecoder().decode([Friend].self, from: Data(buffer: response.body))
                #expect(friends.map(\.id) == [1, 3])
            }
        }
    }

    @Test("With a token, a request without the right bearer token gets 401")
    func token() async throws {
        try await withService(token: "s3cret") { client in
            try await client.execute(uri: "/listFriends", method: .get) { response in
                #expect(response.status == .unauthorized)
                let reason = try Self.reason(response)
                #expect(reason == "A valid bearer token is required.")
            }
            try await client.execute(uri: "/listFriends", method: .get, headers: [.authorization: "Bearer nope"]) {
                response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/listFriends", method: .get, headers: [.authorization: "Bearer s3cret"]) {
                response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("Friends survive closing and reopening the store; ids stay unique")
    func persistence() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try FriendStore.open(directory: directory)
            _ = try await store.add(FriendDraft(firstname: "Jane", lastname: "Doe", phonenumber: "123"))
            let second = try await store.add(FriendDraft(firstname: "Ken", lastname: "Sato", phonenumber: "456"))
            #expect(try await store.delete(id: second.id))
        }
        let reopened = try FriendStore.open(directory: directory)
        #expect(try await reopened.list().map(\.fullName) == ["Jane Doe"])
        let third = try await reopened.add(FriendDraft(firstname: "Amira", lastname: "Haddad", phonenumber: "789"))
        #expect(third.id == 3)
    }
}

@Suite("Reference FriendService, one list per token")
struct FriendServiceListPerTokenTests {
    @Test("--list-per-token: each bearer token has its own list; none is 401; one token cannot touch another's friends")
    func listsPerToken() async throws {
        let router = FriendServiceApplication.buildRouter(store: try .inMemory(), token: nil, listPerToken: true)
        try await Application(router: router).test(.router) { client in
            func headers(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }
            try await client.execute(uri: "/listFriends", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(
                uri: "/addFriend", method: .post, headers: headers("ada-token"),
                body: FriendServiceServerTests.json(FriendServiceServerTests.jane)
            ) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/listFriends", method: .get, headers: headers("ada-token")) { response in
                #expect(String(buffer: response.body).contains("Jane"))
            }
            try await client.execute(uri: "/listFriends", method: .get, headers: headers("grace-token")) {
                response in
                #expect(String(buffer: response.body) == "[]")
            }
            try await client.execute(
                uri: "/editFriend/1", method: .patch, headers: headers("grace-token"),
                body: FriendServiceServerTests.json(#"{"firstname":"Eve"}"#)
            ) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/editFriend/1", method: .delete, headers: headers("grace-token")) {
                response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/listFriends", method: .get, headers: headers("ada-token")) { response in
                #expect(String(buffer: response.body).contains("\"firstname\":\"Jane\""))
            }
        }
    }

    @Test(
        "The list kept before people existed moves to a new person's token, ids kept; then it is empty; a list is deleted alone"
    )
    func moveList() async throws {
        let store = try FriendStore.inMemory()
        let jane = try await store.add(FriendDraft(firstname: "Jane", lastname: "Doe", phonenumber: "123"))
        _ = try await store.add(FriendDraft(firstname: "Eve", lastname: "Moss", phonenumber: "9"), to: "grace-token")
        #expect(try await store.moveList(from: "", to: "ada-token") == 1)
        #expect(try await store.list("").isEmpty)
        #expect(try await store.list("ada-token").map(\.id) == [jane.id])
        #expect(try await store.list("grace-token").map(\.firstname) == ["Eve"])
        #expect(try await store.moveList(from: "", to: "grace-token") == 0, "only the first takes it")
        // A deleted account's list goes, and no other.
        #expect(try await store.deleteList("ada-token") == 1)
        #expect(try await store.list("ada-token").isEmpty)
        #expect(try await store.list("grace-token").map(\.firstname) == ["Eve"])
    }

    @Test("Without the flag it is one list, as before: the token is checked, not used to pick a list")
    func oneList() async throws {
        let store = try FriendStore.inMemory()
        _ = try await store.add(FriendDraft(firstname: "Jane", lastname: "Doe", phonenumber: "123"))
        let router = FriendServiceApplication.buildRouter(store: store, token: "secret")
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/listFriends", method: .get, headers: [.authorization: "Bearer other"]) {
                response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/listFriends", method: .get, headers: [.authorization: "Bearer secret"]) {
                response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("\"firstname\":\"Jane\""), "the one list")
            }
        }
    }
}
