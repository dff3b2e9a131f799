import Hummingbird

/// A query whose percent-encoded bytes are not UTF-8 (`?q=%FF`) gets the 400 page: Foundation
/// would otherwise hand the handlers the text undecoded, as if it had been typed.
struct QueryEncodingMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let query = request.uri.query, !PercentEncoding.decodesToUTF8(query) {
            throw HTTPError(.badRequest, message: "The address is not valid UTF-8 text.")
        }
        return try await next(request, context)
    }
}

/// `application/x-www-form-urlencoded` text and queries, byte by byte.
enum PercentEncoding {
    /// Whether every `%XX` of `text`, decoded with the bytes around it, makes UTF-8.
    static func decodesToUTF8(_ text: some StringProtocol) -> Bool {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return false
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self) != nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
