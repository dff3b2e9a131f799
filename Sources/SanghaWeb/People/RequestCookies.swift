import Hummingbird

/// The request's cookies, read from its `Cookie` headers by bytes. Hummingbird's `Cookies` walks
/// the header a `Character` at a time, and again for every cookie looked up: a page asks for
/// four (the form token, the flash, the session, the device), and that was a quarter of the
/// editor's instructions. A name is found as Hummingbird finds it: the header split at `;`,
/// each part without the whitespace before it, its name up to the first `=`, the first part
/// with that name winning; the value is the rest of the part, as it is (none when empty).
struct RequestCookies: Sendable {
    private let headers: [String]

    init(_ request: Request) {
        headers = request.headers[values: .cookie]
    }

    init(headers: [String]) {
        self.headers = headers
    }

    subscript(name: String) -> String? {
        for header in headers {
            // The first part named wins; empty, it is no cookie, as Hummingbird's `Cookie` has none.
            if let value = Self.value(of: name, in: header) { return value.isEmpty ? nil : value }
        }
        return nil
    }

    /// The value of the first part of `header` named `name`.
    private static func value(of name: String, in header: String) -> String? {
        let bytes = header.utf8
        let wanted = name.utf8
        var part = bytes.startIndex
        while part < bytes.endIndex {
            let end = bytes[part...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            var start = part
            while start < end, Self.isWhitespace(bytes[start]) { start = bytes.index(after: start) }
            if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")),
                bytes[start..<equals].elementsEqual(wanted)
            {
                return String(Substring(bytes[bytes.index(after: equals)..<end]))
            }
            part = end < bytes.endIndex ? bytes.index(after: end) : end
        }
        return nil
    }

    /// ASCII whitespace: what `Character.isWhitespace` drops before a part in a header's bytes.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }
}
