/// Where a compiled template writes, with the same rule swift-mustache renders by: inside an
/// indented partial, a token that starts a new line starts with the indentation; a nested
/// render (a section's body, a partial, a block) is one token of its parent.
///
/// Without indentation, which is most of a page, everything is written straight into one string.
struct TemplateOutput {
    private(set) var string: String
    let indentation: String

    init(indentation: String = "", capacity: Int = 8 * 1024) {
        self.indentation = indentation
        self.string = ""
        string.reserveCapacity(capacity)
    }

    /// One token's text.
    mutating func append(_ text: String) {
        if !indentation.isEmpty, !text.isEmpty, string.utf8.last == UInt8(ascii: "\n") {
            string += indentation
        }
        string += text
    }

    /// One token's value, escaped as `{{name}}` escapes it.
    mutating func appendEscaped(_ text: String) {
        if indentation.isEmpty {
            Self.escape(text, into: &string)
        } else {
            var escaped = ""
            Self.escape(text, into: &escaped)
            append(escaped)
        }
    }

    /// A nested render with `extra` more indentation, appended to this one as one token.
    mutating func nested(indentation extra: String = "", _ body: (inout TemplateOutput) -> Void) {
        if indentation.isEmpty, extra.isEmpty {
            body(&self)
            return
        }
        var child = TemplateOutput(indentation: indentation + extra, capacity: 256)
        body(&child)
        append(child.string)
    }

    /// A section over a list: each element rendered on its own, the whole appended as one token.
    mutating func sequence<Elements: Sequence>(
        _ elements: Elements,
        _ body: (Elements.Element, inout TemplateOutput) -> Void
    ) {
        if indentation.isEmpty {
            for element in elements { body(element, &self) }
            return
        }
        var joined = ""
        for element in elements {
            var child = TemplateOutput(indentation: indentation, capacity: 256)
            body(element, &child)
            joined += child.string
        }
        append(joined)
    }

    /// `&`, `<`, `>`, `"` and `'` as entities, the rest as it is (swift-mustache's `htmlEscape`).
    static func escape(_ text: String, into output: inout String) {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            output += text
            return
        }
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            let entity: String? =
                switch utf8[index] {
                case 0x26: "&amp;"
                case 0x3C: "&lt;"
                case 0x3E: "&gt;"
                case 0x22: "&quot;"
                case 0x27: "&#39;"
                default: nil
                }
            if let entity {
                output += text[start..<index]
                output += entity
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        output += text[start..<utf8.endIndex]
    }
}
