import Hummingbird
import Synchronization

/// Where a compiled template writes: the bytes of the response body, with the same rule
/// swift-mustache renders by: inside an indented partial, a token that starts a new line starts
/// with the indentation; a nested render (a section's body, a partial, a block) is one token of
/// its parent.
///
/// Without indentation, which is most of a page, everything is written straight into one
/// buffer, the one the response sends: no intermediate strings, no copy at the end.
struct TemplateOutput {
    private(set) var buffer: ByteBuffer
    let indentation: String
    private let isIndented: Bool
    /// Whether the last byte written ends a line; kept only when indented.
    private var atLineStart = false

    init(indentation: String = "", capacity: Int) {
        self.indentation = indentation
        self.isIndented = !indentation.isEmpty
        self.buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// A page's output, in a buffer as big as the page was the last time, so that writing it
    /// never has to grow (and copy) the buffer.
    init(sizeHint: TemplateSizeHint) {
        self.init(capacity: sizeHint.capacity)
    }

    /// The bytes written, noting their size for the next render of the same template.
    consuming func finish(_ sizeHint: TemplateSizeHint) -> ByteBuffer {
        sizeHint.record(buffer.readableBytes)
        return buffer
    }

    /// Template text: one token, or several the compiler joined. A token holds at most one line
    /// (the parser ends a text token at its newline), so in an indented partial every line the
    /// text starts is a token starting a new line, and gets the indentation.
    mutating func append(_ text: StaticString) {
        guard isIndented else {
            buffer.writeStaticString(text)
            return
        }
        let bytes = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard let last = bytes.last else { return }
        if atLineStart { buffer.writeString(indentation) }
        var lineStart = 0
        for index in bytes.indices.dropLast() where bytes[index] == UInt8(ascii: "\n") {
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[lineStart...index]))
            buffer.writeString(indentation)
            lineStart = index + 1
        }
        buffer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[lineStart...]))
        atLineStart = last == UInt8(ascii: "\n")
    }

    /// One token's value, escaped as `{{name}}` escapes it.
    mutating func appendEscaped(_ text: String) {
        if isIndented {
            guard let last = text.utf8.last else { return }
            if atLineStart { buffer.writeString(indentation) }
            atLineStart = last == UInt8(ascii: "\n")
        }
        Self.escape(text, into: &buffer)
    }

    /// A number's digits (nothing in them to escape).
    mutating func appendEscaped(_ number: Int) {
        if isIndented {
            if atLineStart { buffer.writeString(indentation) }
            atLineStart = false
        }
        buffer.writeString(String(number))
    }

    mutating func appendEscaped(_ flag: Bool) {
        append(flag ? "true" : "false")
    }

    /// A nested render with `extra` more indentation, appended to this one as one token.
    mutating func nested(indentation extra: String = "", _ body: (inout TemplateOutput) -> Void) {
        if indentation.isEmpty, extra.isEmpty {
            body(&self)
            return
        }
        var child = TemplateOutput(indentation: indentation + extra, capacity: 512)
        body(&child)
        appendToken(child.buffer)
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
        var joined = ByteBufferAllocator().buffer(capacity: 512)
        for element in elements {
            var child = TemplateOutput(indentation: indentation, capacity: 512)
            body(element, &child)
            joined.writeImmutableBuffer(child.buffer)
        }
        appendToken(joined)
    }

    private mutating func appendToken(_ token: ByteBuffer) {
        if isIndented {
            guard let last = token.readableBytesView.last else { return }
            if atLineStart { buffer.writeString(indentation) }
            atLineStart = last == UInt8(ascii: "\n")
        }
        buffer.writeImmutableBuffer(token)
    }

    /// `&`, `<`, `>`, `"` and `'` as entities, the rest as it is (swift-mustache's `htmlEscape`),
    /// written run by run between the characters that need an entity.
    static func escape(_ text: String, into buffer: inout ByteBuffer) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let entity: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "\""): entity = "&quot;"
                case UInt8(ascii: "'"): entity = "&#39;"
                default: continue
                }
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                buffer.writeStaticString(entity)
                start = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])))
        }
    }
}

/// How big a template's last output was (plus an eighth), for the next one's buffer.
final class TemplateSizeHint: Sendable {
    private let bytes = Atomic<Int>(4 * 1024)

    var capacity: Int { bytes.load(ordering: .relaxed) }

    func record(_ size: Int) {
        bytes.store(size + size / 8, ordering: .relaxed)
    }
}
