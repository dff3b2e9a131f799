import Foundation
import Hummingbird
import SanghaCore

/// The routes of the original FriendService API, kept exactly:
/// `GET /listFriends`, `POST /addFriend`, `PATCH /editFriend/{id}`, `DELETE /editFriend/{id}`.
struct FriendServiceController<Context: RequestContext> {
    let store: FriendStore
    /// Each bearer token has a list of its own.
    var listPerToken = false

    /// The list a request works on: its token's, or the one list.
    func list(_ request: Request) throws -> String {
        guard listPerToken else { return "" }
        guard let token = bearerToken(of: request) else {
            throw HTTPError(.unauthorized, message: "A valid bearer token is required.")
        }
        return token
    }

    func addRoutes(to router: Router<Context>) {
        router.get("listFriends") { request, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: try await store.listJSON(of: try list(request)))
            )
        }
        router.post("addFriend", use: add)
        router.patch("editFriend/{id}", use: edit)
        router.delete("editFriend/{id}", use: delete)
    }

    @Sendable func add(_ request: Request, context: Context) async throws -> Friend {
        let list = try list(request)
        let payload = try await request.decode(as: FriendPatch.self, context: context)
        let missing = FriendField.allCases.filter { payload[$0] == nil }
        guard missing.isEmpty else {
            let names = missing.map(\.rawValue).joined(separator: ", ")
            throw HTTPError(.badRequest, message: "Missing field: \(names).")
        }
        let draft = FriendDraft(
            firstname: payload.firstname ?? "",
            lastname: payload.lastname ?? "",
            phonenumber: payload.phonenumber ?? ""
        )
        try Self.validate(draft.validationErrors())
        return try await store.add(draft, to: list)
    }

    @Sendable func edit(_ request: Request, context: Context) async throws -> Friend {
        let list = try list(request)
        let id = try Self.friendID(context)
        let payload = try await request.decode(as: FriendPatch.self, context: context)
        var errors: [FriendField: String] = [:]
        for field in FriendField.allCases {
            if let value = payload[field], let message = field.validate(value) { errors[field] = message }
        }
        try Self.validate(errors)
        guard let updated = try await store.update(id: id, applying: payload, in: list) else {
            throw Self.friendNotFound(id)
        }
        return updated
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> HTTPResponse.Status {
        let list = try list(request)
        let id = try Self.friendID(context)
        guard try await store.delete(id: id, from: list) else { throw Self.friendNotFound(id) }
        return .ok
    }

    /// An id that is not a number names no friend: 404, like an unknown one.
    static func friendID(_ context: Context) throws -> Int {
        guard let id = context.parameters.get("id", as: Int.self) else {
            throw HTTPError(.notFound, message: "No friend with id \(context.parameters.get("id") ?? "").")
        }
        return id
    }

    static func friendNotFound(_ id: Int) -> HTTPError {
        HTTPError(.notFound, message: "No friend with id \(id).")
    }

    static func validate(_ errors: [FriendField: String]) throws {
        let messages = FriendField.allCases.compactMap { errors[$0] }
        guard messages.isEmpty else { throw HTTPError(.badRequest, message: messages.joined(separator: " ")) }
    }
}

extension Friend: ResponseEncodable {}
