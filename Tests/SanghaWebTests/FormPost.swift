import Foundation
import Hummingbird
import HummingbirdTesting

@testable import SanghaWeb

/// A form post as a browser that loaded the page sends it: the CSRF cookie, and the page's
/// token in the form (the nonce signed with the session, `CookieSigner.formToken`).
enum FormPost {
    /// The nonce of the tests' CSRF cookie.
    static let token = "test-form-token-0123456789"

    /// The form token of a page seen with `cookies` (a session among them or not).
    static func formToken(cookies: [String], nonce: String = token) -> String {
        let session = cookies.flatMap { $0.split(separator: ";") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("\(SignInCookie.name)=") }
            .map { String($0.dropFirst(SignInCookie.name.count + 1)) }
            .flatMap { $0.isEmpty ? nil : SignInCookie.key(of: $0) }
        return TestDependencies.signer.formToken(nonce: nonce, session: session)
    }

    static func headers(cookies: [String] = []) -> HTTPFields {
        [
            .contentType: "application/x-www-form-urlencoded",
            .cookie: (["sangha_csrf=\(token)"] + cookies).joined(separator: "; "),
        ]
    }

    static func body(_ fields: String, cookies: [String] = []) -> ByteBuffer {
        let token = formToken(cookies: cookies)
        return ByteBuffer(string: fields.isEmpty ? "_csrf=\(token)" : "\(fields)&_csrf=\(token)")
    }
}

extension TestClientProtocol {
    /// Posts `fields` to `uri` as the browser's form would: token in the cookie and in the form.
    @discardableResult func post<Return>(
        _ uri: String,
        form fields: String,
        cookies: [String] = [],
        _ test: @escaping (TestResponse) async throws -> Return = { $0 }
    ) async throws -> Return {
        try await execute(
            uri: uri, method: .post, headers: FormPost.headers(cookies: cookies),
            body: FormPost.body(fields, cookies: cookies),
            testCallback: test)
    }
}
