import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A browser that signed up (the first to sign up to a fresh app is person 1) and sends its
/// session cookie with every request.
struct SignedInClient: TestClientProtocol {
    let base: any TestClientProtocol
    let sessionCookie: String

    var port: Int? { base.port }

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?)
        async throws -> TestResponse
    {
        var headers = headers
        headers[.cookie] = [headers[.cookie], sessionCookie].compactMap { $0 }.joined(separator: "; ")
        // A form made for no session is sent with the one made for this session, as a page seen
        // signed in would have it.
        var body = body
        if let bytes = body?.readableBytesView, let text = String(validating: bytes, as: UTF8.self) {
            let unbound = "_csrf=\(FormPost.formToken(cookies: []))"
            body = ByteBuffer(
                string: text.replacingOccurrences(
                    of: unbound, with: "_csrf=\(FormPost.formToken(cookies: [sessionCookie]))"))
        }
        return try await base.executeRequest(uri: uri, method: method, headers: headers, body: body)
    }
}

extension TestClientProtocol {
    /// Signs up as `username` through `POST /sign-up` and answers a client carrying the session.
    func signedUp(username: String = "ada", name: String = "Ada Lovelace") async throws -> SignedInClient {
        let cookie = try await post(
            "/sign-up",
            form:
                "name=\(name.replacingOccurrences(of: " ", with: "+"))&username=\(username)&password=\(TestDependencies.password.replacingOccurrences(of: " ", with: "+"))"
        ) { response in
            #expect(response.status == .seeOther)
            return try #require(Self.sessionCookie(in: response))
        }
        return SignedInClient(base: self, sessionCookie: cookie)
    }

    /// `sangha_session=…` of a response's Set-Cookie headers.
    static func sessionCookie(in response: TestResponse) -> String? {
        response.headers[values: .setCookie].first {
            $0.hasPrefix("sangha_session=") && !$0.hasPrefix("sangha_session=;")
        }
        .map { String($0.prefix { $0 != ";" }) }
    }
}
