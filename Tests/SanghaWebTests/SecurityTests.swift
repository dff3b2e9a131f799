import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SanghaCore
import SanghaHTTP
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import Testing

@testable import SanghaWeb

@Suite("Security: CSRF, host check, headers, methods")
struct SecurityTests {
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    @Test("A page sets the CSRF cookie, HttpOnly and SameSite=Lax, and its forms carry the token")
    func tokenOnPages() async throws {
        try await withSignedInApp { client in
            try await client.execute(uri: "/profiles", method: .get) { response in
                let cookie = try #require(response.headers[.setCookie])
                #expect(cookieShown(cookie) == "sangha_csrf=\(FormPost.token); HttpOnly; Path=/; SameSite=Lax")
                // Every form of the page (New profile, Sign out) carries the session's token.
                let token = FormPost.formToken(cookies: [client.sessionCookie])
                #expect(formTokens(in: String(buffer: response.body)) == [token, token])
            }
            // A browser that has the cookie keeps it: no new one.
            try await client.execute(
                uri: "/profiles", method: .get, headers: [.cookie: "sangha_csrf=\(FormPost.token)"]
            ) {
                response in
                #expect(response.headers[.setCookie] == nil)
            }
        }
    }

    @Test(
        "A cookie that is not a token of ours is never echoed into a page; the browser gets a new one",
        arguments: [
            "short", "\"><script>alert(1)</script>0123456789", "ääääääääääääääääää", "token with spaces 0123456789",
            String(repeating: "a", count: 129),
        ]
    )
    func malformedCookie(value: String) async throws {
        try await withSignedInApp { client in
            try await client.execute(uri: "/profiles", method: .get, headers: [.cookie: "sangha_csrf=\(value)"]) {
                response in
                // The page whole, the same for every value: the cookie is not in it, and a new one is set.
                assertResponse(response, named: "profiles")
            }
        }
    }

    @Test("Tokens of 16 to 128 letters, digits, - and _ are taken as they are")
    func wellFormedCookie() async throws {
        for value in [String(repeating: "A", count: 16), "Az09-_" + String(repeating: "x", count: 122)] {
            try await withSignedInApp { client in
                try await client.execute(uri: "/profiles", method: .get, headers: [.cookie: "sangha_csrf=\(value)"]) {
                    response in
                    #expect(response.headers[.setCookie] == nil)
                    let token = FormPost.formToken(cookies: [client.sessionCookie], nonce: value)
                    #expect(formTokens(in: String(buffer: response.body)) == [token, token])
                }
            }
        }
    }

    @Test(
        "A post without the token, with a wrong one, or without the cookie is refused with 403 and changes nothing",
        arguments: [
            ("name=Evening", "sangha_csrf=\(FormPost.token)"),
            ("name=Evening&_csrf=wrong-token-wrong-token", "sangha_csrf=\(FormPost.token)"),
            ("name=Evening&_csrf=\(FormPost.token)", ""),
            ("name=Evening&_csrf=\(FormPost.token)", "sangha_csrf=another-token-0123456789"),
        ]
    )
    func refused(body: String, cookie: String) async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(dependencies: TestDependencies.make(data: data)) { client in
            var headers = Self.form
            if !cookie.isEmpty { headers[.cookie] = cookie }
            try await client.execute(uri: "/profiles", method: .post, headers: headers, body: ByteBuffer(string: body))
            {
                response in
                // 403: "This form has expired or was sent from another site."; without a cookie, a new one.
                assertResponse(response, named: cookie.isEmpty ? "refused-no-cookie" : "refused")
            }
        }
        #expect(try await data.profiles(of: 1).list().isEmpty)
    }

    @Test("A post from another site's Origin is refused even with the token; our own Origin is fine")
    func origin() async throws {
        let data = try SQLitePersonalData.inMemory()
        try await withSignedInApp(dependencies: TestDependencies.make(data: data)) { client in
            var foreign = FormPost.headers()
            foreign[.origin] = "http://evil.example"
            try await client.execute(uri: "/profiles", method: .post, headers: foreign, body: FormPost.body("name=A")) {
                response in
                #expect(response.status == .forbidden)
            }
            var crossSite = FormPost.headers()
            crossSite[HTTPField.Name("Sec-Fetch-Site")!] = "cross-site"
            try await client.execute(uri: "/profiles", method: .post, headers: crossSite, body: FormPost.body("name=B"))
            {
                response in
                #expect(response.status == .forbidden)
            }
            var own = FormPost.headers()
            own[.origin] = "http://127.0.0.1:8080"
            try await client.execute(uri: "/profiles", method: .post, headers: own, body: FormPost.body("name=C")) {
                response in
                #expect(response.status == .seeOther)
            }
        }
        #expect(try await data.profiles(of: 1).list().map(\.name) == ["C"])
    }

    @Test(
        "Only configured host names are served (the Host header's check; end-to-end tests send real ones)",
        arguments: [
            ("localhost", true), ("localhost:8080", true), ("127.0.0.1:8080", true), ("[::1]:8080", true),
            ("LOCALHOST:8080", true), ("evil.example", false), ("evil.example:8080", false), ("localhost:9999", false),
            ("127.0.0.1.evil.example", false), ("sangha.lan:8080", true),
        ]
    )
    func hostCheck(host: String, served: Bool) {
        let configuration = AppConfiguration(port: 8080, extraAllowedHosts: ["sangha.lan"])
        #expect(
            HostCheckMiddleware<AppRequestContext>.isAllowed(host, hosts: configuration.allowedHosts, port: 8080)
                == served)
    }

    @Test("A request with two Host headers gets 400, even when both are ours")
    func twoHostHeaders() async throws {
        try await withApp { client in
            var headers: HTTPFields = [:]
            headers.append(HTTPField(name: HTTPField.Name("Host")!, value: "localhost"))
            try await client.execute(uri: "/sign-in", method: .get, headers: headers) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body) == "A request has one Host header.\n")
            }
            try await client.execute(uri: "/sign-in", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("Percent-encoding: bytes that are not UTF-8 are refused; a % that encodes nothing is itself")
    func percentEncoding() {
        for text in ["q=100%", "q=%zz", "q=%e2%82%ac", "q=caf%C3%A9+au+lait", "a=1&b=%", "", "q=%25FF"] {
            #expect(PercentEncoding.decodesToUTF8(text), "\(text)")
        }
        for text in ["q=%FF", "q=%C3%28", "q=%E2%82", "q=%ED%A0%80", "name=%C0%AE"] {
            #expect(!PercentEncoding.decodesToUTF8(text), "\(text)")
        }
    }

    @Test("GET /health/ready answers OK while the storage answers, 503 with why when it does not")
    func readiness() async throws {
        let data = BreakableData(try SQLitePersonalData.inMemory())
        try await withApp(dependencies: TestDependencies.make(data: data)) { client in
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "OK")
            }
            data.faults.ping.fail(.unreachable)
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body) == StorageMessage.unreachable + "\n")
            }
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok, "liveness does not ask the storage")
            }
        }
    }

    @Test("Every response carries the security headers, error pages included")
    func headers() async throws {
        try await withSignedInApp { client in
            for uri in ["/profiles", "/nowhere", "/css/sangha.css"] {
                try await client.execute(uri: uri, method: .get) { response in
                    // Nothing but this origin, no inline script, no framing.
                    #expect(
                        response.headers[.contentSecurityPolicy]
                            == "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
                            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff")
                    #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
                }
            }
        }
    }

    @Test(
        "HEAD is answered as GET without the body, an unknown address's too; a group's event stream is not opened by it"
    )
    func head() async throws {
        try await withSignedInApp { client in
            for uri in ["/health", "/profiles", "/history"] {
                let length = try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    return response.headers[.contentLength]
                }
                try await client.execute(uri: uri, method: .head) { response in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.body.readableBytes == 0, "\(uri)")
                    #expect(response.headers[.contentLength] == length, "\(uri)")
                }
            }
            // A body written as it goes (the export) has its length counted, not 0.
            let export = try await client.execute(uri: "/profiles/export.json", method: .get) { response in
                #expect(response.status == .ok)
                return response.body.readableBytes
            }
            #expect(export > 0)
            try await client.execute(uri: "/profiles/export.json", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.contentLength] == String(export))
            }
            try await client.execute(uri: "/no/such/page", method: .head) { response in
                #expect(response.status == .notFound)
                #expect(response.body.readableBytes == 0)
            }
            for uri in ["/groups/1/events", "/sign-in/oidc/start", "/sign-in/oidc?code=c&state=s"] {
                try await client.execute(uri: uri, method: .head) { response in
                    #expect(response.status == .methodNotAllowed, "\(uri)")
                    #expect(response.headers[.allow] == "GET", "\(uri)")
                    #expect(response.body.readableBytes == 0, "\(uri)")
                }
            }
            try await client.execute(uri: "/profiles/%FF", method: .get) { response in
                #expect(response.status == .badRequest, "bytes that are not UTF-8 in the path, as in the query")
            }
        }
    }

    @Test("A known address with the wrong method is 405 with Allow, in the layout")
    func methodNotAllowed() async throws {
        try await withSignedInApp { client in
            try await client.execute(
                uri: "/friends", method: .put, headers: FormPost.headers(), body: FormPost.body("")
            ) {
                // 405 with Allow: GET, POST, and the error page in the layout (its navigation).
                assertResponse($0, named: "friends-put")
            }
            try await client.execute(uri: "/profiles/1/delete", method: .get) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST")
            }
            try await client.execute(
                uri: "/no/such/page", method: .delete, headers: FormPost.headers(), body: FormPost.body("")
            ) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}

@Suite("CSRF tokens")
struct CSRFTokenTests {
    @Test("A new token is 64 hex digits, and no two are alike")
    func randomTokens() {
        let tokens = (0..<1000).map { _ in SecretToken.make() }
        #expect(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(tokens).count == tokens.count)
    }
}
