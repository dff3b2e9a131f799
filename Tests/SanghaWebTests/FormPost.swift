import Hummingbird
import HummingbirdTesting

/// A form post as a browser that loaded the page sends it: the CSRF cookie, and the same token
/// in the form.
enum FormPost {
    static let token = "test-form-token-0123456789"

    static func headers(cookies: [String] = []) -> HTTPFields {
        [
            .contentType: "application/x-www-form-urlencoded",
            .cookie: (["sangha_csrf=\(token)"] + cookies).joined(separator: "; "),
        ]
    }

    static func body(_ fields: String) -> ByteBuffer {
        ByteBuffer(string: fields.isEmpty ? "_csrf=\(token)" : "\(fields)&_csrf=\(token)")
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
            uri: uri, method: .post, headers: FormPost.headers(cookies: cookies), body: FormPost.body(fields),
            testCallback: test)
    }
}
