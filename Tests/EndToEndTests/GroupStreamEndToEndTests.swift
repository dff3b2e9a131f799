import Foundation
import SanghaCore
import SanghaTestSupport
import Testing

/// A group's event stream on the running server, over a socket.
@Suite("Group event streams end to end", .serialized)
struct GroupStreamEndToEndTests {
    @Test(
        "A stream whose reader stopped reading is dropped once it falls behind, and its connection closed, not kept with its buffers full"
    )
    func stalledReader() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-stalled-stream")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SanghaProcess.serve(dataDirectory: data)
        defer { server.stopInBackground() }
        let ada = HTTPClient()
        try await ada.signUp(at: server.baseURL)
        let base = server.baseURL
        let name = String(repeating: "Long morning sit ", count: 3)
        let profile = try await ada.send(
            "POST", base.appendingPathComponent("profiles"), form: ["name": String(name.prefix(60))])
        let profileID = try #require(profile.header("Location")?.split(separator: "/").last.map(String.init))
        let group = try await ada.send("POST", base.appendingPathComponent("groups"), form: ["name": "Morning"])
        let groupPath = try #require(group.header("Location"))
        let sits = base.appendingPathComponent(groupPath).appendingPathComponent("sits")
        func schedule(_ day: Int) async throws {
            // A sit a day, from tomorrow (at most a year ahead).
            let startsAt = Date().addingTimeInterval(Double(day + 1) * 86_400)
            let text = startsAt.formatted(.iso8601.year().month().day().dateSeparator(.dash)) + "T07:00"
            let response = try await ada.send("POST", sits, form: ["profile": profileID, "startsAt": text])
            #expect(response.status == 303, "\(text)")
        }
        // Upcoming sits, many: each change sends the whole part again (tens of KB).
        for day in 0..<40 { try await schedule(day) }

        // Ada's page listens through a socket that takes 4 KB and is then never read.
        let session = try #require(ada.cookie(named: "sangha_session"))
        let request = "GET \(groupPath)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: sangha_session=\(session)\r\n\r\n"
        let stream = try RawStream(Array(request.utf8), port: server.port, receiveBuffer: 4096)

        // A sit scheduled and cancelled, over and over: each sends the part again, far more than
        // the stream's few buffered messages and its connection's small send buffer hold. Up to
        // the group's limit of sits not over, cancelled ones counted (`limitNotOverPerGroup`).
        for sit in 41...GroupSit.limitNotOverPerGroup - 1 {
            try await schedule(41)
            let cancelled = try await ada.send("POST", sits.appendingPathComponent("\(sit)/cancel"), form: [:])
            #expect(cancelled.status == 303)
        }
        // Dropped, its connection is closed: what the kernel held arrives (read now through a
        // wide window: 4 KB at a time takes minutes), then the end, with no last chunk (a
        // response that finished would end with one, and keep the connection).
        stream.setReceiveBuffer(1 << 20)
        #expect(await stream.readToEnd(timeout: 30), "the connection was kept open")
        #expect(stream.text.hasPrefix("HTTP/1.1 200"))
        #expect(!stream.text.hasSuffix("\r\n0\r\n\r\n"), "the response finished instead of being cut off")
        let log = try String(contentsOf: server.logFile, encoding: .utf8)
        #expect(log.contains("A group event stream fell behind and was dropped"))
    }
}
