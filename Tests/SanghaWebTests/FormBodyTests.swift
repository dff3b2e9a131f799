import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaTestSupport
import Testing

@testable import SanghaWeb

/// A body is read only for someone who may post it, and a form with a file costs the server in
/// proportion to its size: the steps of an attack that made the server decode the whole of a
/// multipart body of many parts (quadratic in their count) before it looked at the sign-in or
/// the token.
@Suite struct FormBodyTests {
    /// The start of a multipart post to the import that declares 7 MB and sends only its first
    /// parts: the connection stays open, the rest never comes.
    static func unfinishedImport(cookie: String, parts: [(String, String)]) -> [UInt8] {
        var body = ""
        for (name, value) in parts {
            body += "--b\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        let head =
            "POST /history/import HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            + "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 7000000\r\nCookie: \(cookie)\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// What came back to `bytes` before the request was complete: its head, or nil when nothing
    /// came within 10 s (a server waiting for the rest).
    static func answer(to bytes: [UInt8], port: Int) async throws -> String? {
        let stream = try RawStream(bytes, port: port)
        return await stream.read(until: "\r\n\r\n", timeout: 10) ? stream.text : nil
    }

    static let manyParts = Array(repeating: ("f[]", "1"), count: 50)

    @Test("Not signed in, with a cookie of one's own making: a form with a file is refused before its body is read")
    func strangerRefusedBeforeTheBody() async throws {
        try await withApp(testing: .live) { client in
            let port = try #require(client.port)
            let request = Self.unfinishedImport(
                cookie: "sangha_csrf=\(String(repeating: "a", count: 24))",
                parts: [("_csrf", "anything")] + Self.manyParts)
            let head = try #require(try await Self.answer(to: request, port: port))
            #expect(head.hasPrefix("HTTP/1.1 403"))
        }
    }

    @Test("Signed in, a wrong token in the first part: refused before the rest of the body is read")
    func wrongTokenRefusedBeforeTheRest() async throws {
        try await withSignedInApp(testing: .live) { ada in
            let port = try #require(ada.port)
            let request = Self.unfinishedImport(
                cookie: "sangha_csrf=\(FormPost.token); \(ada.sessionCookie)",
                parts: [("_csrf", "not-the-token")] + Self.manyParts)
            let head = try #require(try await Self.answer(to: request, port: port))
            #expect(head.hasPrefix("HTTP/1.1 403"))
        }
    }

    @Test(
        "Signed in with the token: 20,000 parts are refused with 400 and why (the same name again sooner), and the import still works"
    )
    func tooManyParts() async throws {
        try await withSignedInApp { ada in
            let (type, body) = PracticeLogRoutesTests.multipart(
                (0..<20_000).map { (name: "f\($0)", value: "1", fileName: nil) })
            try await ada.postMultipart("/history/import", contentType: type, body: body) { response in
                // 400: "The form has more parts than Sangha’s forms have."
                assertResponse(response, named: "too-many-parts")
            }
            let (_, file) = PracticeLogRoutesTests.multipart([("file", "started_at,seconds\r\n", "a.csv")])
            try await ada.postMultipart("/history/import", contentType: type, body: file) {
                #expect($0.status == .unprocessableContent)
            }
        }
    }

    @Test(
        "A form with a file that is cut short, repeats a field, or puts its token after another part is refused",
        arguments: [
            ("cut short", 400), ("repeated", 400), ("token second", 403),
        ])
    func brokenForms(kind: String, status: Int) async throws {
        try await withSignedInApp { ada in
            let (type, whole) = PracticeLogRoutesTests.multipart([("content", "x", nil), ("action", "import", nil)])
            let body =
                switch kind {
                case "cut short": String(whole.dropLast("--\r\n".count + 20))
                case "repeated":
                    PracticeLogRoutesTests.multipart([("content", "x", nil), ("content", "y", nil)]).1
                default:
                    "------sangha-test-boundary\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nx\r\n" + whole
                }
            try await ada.postMultipart("/history/import", contentType: type, body: body) {
                #expect($0.status.code == status)
            }
        }
    }

    @Test(
        "A multipart type without a valid boundary is 400, and the server serves on; a boundary among other parameters is found",
        arguments: [
            ("multipart/form-data; boundary=", 400), ("multipart/form-data; boundary=\"\"", 400),
            ("multipart/form-data", 400), ("multipart/form-data; boundary=\(String(repeating: "b", count: 71))", 400),
            ("multipart/form-data; charset=utf-8; boundary=\"----sangha-test-boundary\"", 200),
        ])
    func boundaries(contentType: String, status: Int) async throws {
        try await withSignedInApp { ada in
            let file = "started_at,seconds,profile,outcome,group,note\r\n2026-11-17T06:00:00Z,600,Zazen,completed,,\r\n"
            let (_, body) = PracticeLogRoutesTests.multipart([("file", file, "a.csv")])
            try await ada.postMultipart("/history/import", contentType: contentType, body: body) {
                #expect($0.status.code == status)
            }
            try await ada.execute(uri: "/history", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test("A first part that is not the token, or a header that never ends, is refused before it is read to its end")
    func refusedEarly() async throws {
        try await withSignedInApp(testing: .live) { ada in
            let port = try #require(ada.port)
            let cookie = "sangha_csrf=\(FormPost.token); \(ada.sessionCookie)"
            // The file first, its content still coming: refused as soon as its name is read.
            let fileFirst =
                Self.unfinishedImport(cookie: cookie, parts: [])
                + Array("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n".utf8)
                + Array(repeating: UInt8(ascii: "x"), count: 4096)
            #expect(try await Self.answer(to: fileFirst, port: port)?.hasPrefix("HTTP/1.1 403") == true)
            // A header line of 20 KB, and more to come.
            let longHeader =
                Self.unfinishedImport(cookie: cookie, parts: [])
                + Array("--b\r\nContent-Disposition: form-data; name=\"_csrf\"; x=".utf8)
                + Array(repeating: UInt8(ascii: "x"), count: 20_000)
            #expect(try await Self.answer(to: longHeader, port: port)?.hasPrefix("HTTP/1.1 400") == true)
        }
    }
}
