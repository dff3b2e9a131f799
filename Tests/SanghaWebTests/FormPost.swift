import Hummingbird

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
