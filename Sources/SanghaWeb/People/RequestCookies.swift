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

    /// The value of the first part of `header` named `name`. Read from the header's UTF-8 in
    /// place: `String.UTF8View`'s own indices cost some 1,500 instructions a part (a page's
    /// cookies were 33 k instructions of a group's page).
    private static func value(of name: String, in header: String) -> String? {
        var (header, name) = (header, name)
        return name.withUTF8 { wanted in
            header.withUTF8 { bytes -> String? in
                var part = 0
                while part < bytes.count {
                    var end = part
                    while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
                    var start = part
                    while start < end, Self.isWhitespace(bytes[start]) { start += 1 }
                    var equals = start
                    while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                    if equals < end, UnsafeBufferPointer(rebasing: bytes[start..<equals]).elementsEqual(wanted) {
                        return String(decoding: UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), as: UTF8.self)
                    }
                    part = end + 1
                }
                return nil
            }
        }
    }

    /// ASCII whitespace: what `Character.isWhitespace` drops before a part in a header's bytes.
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }
}
