import Hummingbird
import SanghaCore

/// `If-None-Match` (RFC 9110 §13.1.2): whether the browser's copy is `etag`, so 304 will do. The
/// comparison is weak, as the RFC asks for this header: a proxy that compresses marks the tag it
/// passes on `W/"…"`, and the copy behind it is still this one. `*` matches any tag.
enum IfNoneMatch {
    static func matches(_ request: Request, etag: String) -> Bool {
        guard let field = request.headers[.ifNoneMatch] else { return false }
        let wanted = opaque(Substring(etag))
        return field.split(separator: ",").contains { tag in
            let tag = tag.trimmingOptionalWhitespace()
            return tag == "*" || opaque(tag) == wanted
        }
    }

    /// The tag without its weakness: `W/"x"` and `"x"` are the same tag, weakly compared.
    private static func opaque(_ tag: Substring) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}
