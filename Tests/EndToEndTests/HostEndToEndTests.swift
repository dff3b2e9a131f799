import Foundation
import SanghaTestSupport
import Testing

/// The host a request names, however it names it, on the real server (the HTTP/1 parser and the
/// codec the tests' in-process client skips).
@Suite("Host names end to end", .serialized)
struct HostEndToEndTests {
    static func get(_ target: String, host: String, port: Int) async throws -> RawHTTP.Response {
        let head = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
        return try await RawHTTP.send(Array(head.utf8), port: port)
    }

    @Test(
        "An absolute-form target is judged by its host, not Host; the embedded FriendService serves only loopback names"
    )
    func absoluteFormAndFriendService() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-e2e-host")
        defer { try? FileManager.default.removeItem(at: data) }
        let friendPort = try SilentServer.freePort()
        let server = try await SanghaProcess.serve(dataDirectory: data, ["--friend-service-port", "\(friendPort)"])
        defer { server.stopInBackground() }
        let port = server.port
        let own = "127.0.0.1:\(port)"

        #expect(try await Self.get("/sign-in", host: own, port: port).status == 200)
        // RFC 9112 §3.2.2: the target's host wins over Host, and a proxy routes by it.
        let foreign = try await Self.get("http://evil.example/sign-in", host: own, port: port)
        #expect(foreign.status == 421)
        #expect(!foreign.body.contains("<html"))
        #expect(try await Self.get("http://evil.example:\(port)/sign-in", host: own, port: port).status == 421)
        #expect(try await Self.get("http://user@evil.example/sign-in", host: own, port: port).status == 421)
        #expect(try await Self.get("http://\(own)/sign-in", host: own, port: port).status == 200)
        #expect(try await Self.get("http://localhost:\(port)/sign-in", host: "evil.example", port: port).status == 200)

        // The embedded FriendService: a page on a rebinding name gets 421 before any token check.
        let rebinding = try await Self.get("/listFriends", host: "evil.example:\(friendPort)", port: friendPort)
        #expect(rebinding.status == 421)
        let loopback = try await Self.get("/listFriends", host: "127.0.0.1:\(friendPort)", port: friendPort)
        #expect(loopback.status == 401, "no bearer token: refused, but by the service, not the host check")
        #expect(
            try await Self.get("http://evil.example/listFriends", host: "127.0.0.1:\(friendPort)", port: friendPort)
                .status
                == 421)
    }
}
