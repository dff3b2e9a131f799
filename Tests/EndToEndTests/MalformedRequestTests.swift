import Foundation
import SanghaTestSupport
import Testing

/// Hundreds of generated malformed requests at the running server: it never answers 5xx, never
/// crashes, and still answers /health afterwards.
@Suite("Malformed requests end to end", .serialized)
struct MalformedRequestTests {
    /// A deterministic generator, so a failure can be replayed.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Case {
        let label: String
        let bytes: [UInt8]
    }

    static let formPaths = [
        "/friends", "/friends/1", "/friends/1/delete", "/friends/999999", "/profiles", "/profiles/1",
        "/profiles/1/delete", "/profiles/999999",
    ]
    static let oddFields = [
        "%", "%ZZ", "%C3%28", "%00", "%FF%FE", "a=%", "firstname=%E2%82", "+%2B+", "==&&==", "&&&", "name",
        "firstname=a&firstname=b", "name=x&name=y", "firstname[]=a", "firstname[a]=b", "name[0]=x", "version=-1",
        "version=99999999999999999999", "main.duration=99:99:99", "main.duration=-5", "main.duration=%E2%80%AE",
        "warmUp.enabled=on&warmUp.duration=", "warmUp.repeat.iterations=1e9", "name=\u{202E}evil",
        "firstname=\(String(repeating: "a", count: 300))&lastname=b&phonenumber=1",
        "phonenumber=\(String(repeating: "9", count: 500))", "firstname=%F0%9F%A7%98&lastname=Z&phonenumber=123",
    ]
    static let oddTargets = [
        "/friends/99999999999999999999/edit", "/friends/-1/edit", "/friends/0x10/edit", "/friends/1e3/edit",
        "/friends/%2e%2e/edit", "/profiles/%00", "/profiles/-1", "/profiles/1.5", "/profiles/%FF", "/friends?q=%FF",
        "/friends?q=\(String(repeating: "x", count: 4000))", "/friends?q[]=1&q[x]=2", "/friends?q=%", "/..%2f..%2fetc",
        "/css/../../Package.swift", "/_gallery", "/friends/new?x=%ZZ", "//friends", "/profiles/1/delete/extra",
        "/%C0%AE%C0%AE/", "*",
    ]

    func cases(port: Int, cookie: String, token: String) -> [Case] {
        var random = SplitMix64(state: 20_261_121)
        var cases: [Case] = []
        let withToken = [("Cookie", cookie), ("Content-Type", "application/x-www-form-urlencoded")]
        func post(_ path: String, _ body: [UInt8], headers: [(String, String)] = withToken) -> [UInt8] {
            RawHTTP.request("POST", path, headers: headers, body: body, port: port)
        }
        // Random bodies, with and without the token.
        for index in 0..<160 {
            let path = Self.formPaths[index % Self.formPaths.count]
            let length = Int.random(in: 0...2000, using: &random)
            var body = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if index % 2 == 0 { body += Array("&_csrf=\(token)".utf8) }
            cases.append(Case(label: "random body → \(path)", bytes: post(path, body)))
        }
        // Odd encodings, duplicated and missing fields, over-long values.
        for (index, fields) in Self.oddFields.enumerated() {
            for path in Self.formPaths where (index + path.count) % 2 == 0 || path.hasPrefix("/profiles/1") {
                cases.append(
                    Case(
                        label: "\(fields.prefix(40)) → \(path)",
                        bytes: post(path, Array("\(fields)&_csrf=\(token)".utf8))))
            }
        }
        // Huge values.
        for size in [65 * 1024, 200 * 1024, 1024 * 1024] {
            let body = Array("name=\(String(repeating: "a", count: size))&_csrf=\(token)".utf8)
            cases.append(Case(label: "\(size) bytes → /profiles", bytes: post("/profiles", body)))
        }
        // Unknown and non-numeric ids, odd targets, with each method.
        for target in Self.oddTargets {
            for method in ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"] {
                let body: [UInt8] = method == "POST" ? Array("_csrf=\(token)".utf8) : []
                cases.append(
                    Case(
                        label: "\(method) \(target.prefix(60))",
                        bytes: RawHTTP.request(method, target, headers: withToken, body: body, port: port)))
            }
        }
        // Wrong methods on known pages.
        for path in ["/", "/friends", "/friends/new", "/friends/1/edit", "/profiles", "/profiles/1", "/health"] {
            for method in ["PUT", "DELETE", "PATCH", "TRACE", "BREW"] {
                cases.append(
                    Case(
                        label: "\(method) \(path)", bytes: RawHTTP.request(method, path, headers: withToken, port: port)
                    ))
            }
        }
        // Odd headers and cookies.
        let oddHeaders: [[(String, String)]] = [
            [("Accept", "application/json;q=abc")], [("Accept", "*/*;q=0, application/json;q=2")],
            [("Cookie", "sangha_flash=%%%%")], [("Cookie", "sangha_flash=eyJ")], [("Cookie", "sangha_csrf=<script>")],
            [("Cookie", String(repeating: "a=b; ", count: 500))], [("Content-Type", "multipart/form-data; boundary=x")],
            [("Content-Type", "application/json")], [("Origin", "null")], [("Origin", "http://evil.example")],
            [("Transfer-Encoding", "chunked")], [("X-Forwarded-Host", "evil.example")],
        ]
        for headers in oddHeaders {
            for path in ["/", "/friends", "/profiles/1"] {
                cases.append(
                    Case(
                        label: "GET \(path) \(headers[0].0): \(headers[0].1.prefix(30))",
                        bytes: RawHTTP.request("GET", path, headers: headers, port: port)))
                cases.append(
                    Case(
                        label: "POST \(path) \(headers[0].0)",
                        bytes: post(path, Array("name=x&_csrf=\(token)".utf8), headers: headers + [("Cookie", cookie)]))
                )
            }
        }
        // Bytes that are not HTTP at all.
        let garbage = [
            "GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Line\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "x", count: 100_000))\r\n\r\n",
            "POST /profiles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nshort",
            "POST /profiles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
            "\u{0}\u{1}\u{2}\u{3}", "GET /\u{0} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        ]
        for text in garbage {
            cases.append(Case(label: "raw \(text.prefix(30).debugDescription)", bytes: Array(text.utf8)))
        }
        return cases
    }

    @Test("Over 500 malformed requests: no 5xx, no crash, /health still answers")
    func noServerErrors() async throws {
        let data = try RepositoryPaths.temporaryDirectory("sangha-malformed")
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await SanghaProcess.serve(
            dataDirectory: data, ["--friend-service-port", "\(try SilentServer.freePort())", "--log-level", "warning"])
        let port = server.port
        defer { server.stopInBackground() }

        // A browser's cookie and token, and a friend and a profile to aim at.
        let browser = HTTPClient()
        try await browser.signUp(at: server.baseURL)
        _ = try await browser.send("POST", server.baseURL.appendingPathComponent("profiles"), form: ["name": "Target"])
        _ = try await browser.send(
            "POST",
            server.baseURL.appendingPathComponent("friends"),
            form: ["firstname": "Jane", "lastname": "Doe", "phonenumber": "123"]
        )
        let token = try #require(browser.cookie(named: "sangha_csrf"))
        let session = try #require(browser.cookie(named: "sangha_session"))
        let cookie = "sangha_csrf=\(token); sangha_session=\(session)"

        let cases = cases(port: port, cookie: cookie, token: token)
        #expect(cases.count >= 500)
        var statuses: [Int: Int] = [:]
        var failures: [String] = []
        for item in cases {
            let response = try await RawHTTP.send(item.bytes, port: port)
            let status = response.status ?? 0
            statuses[status, default: 0] += 1
            if status >= 500 { failures.append("\(status) for \(item.label)") }
        }
        print("Malformed requests sent: \(cases.count); answers by status: \(statuses.sorted { $0.key < $1.key })")
        #expect(failures.isEmpty, "5xx answers:\n\(failures.joined(separator: "\n"))")
        let health = try await RawHTTP.send(RawHTTP.request("GET", "/health", port: port), port: port)
        #expect(health.status == 200)
        #expect(server.isRunning)
    }
}
