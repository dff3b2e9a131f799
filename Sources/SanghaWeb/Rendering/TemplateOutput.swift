import Hummingbird
import Synchronization

/// Where a compiled template writes, with the same rule swift-mustache renders by: inside an
/// indented partial, a token that starts a new line starts with the indentation; a nested
/// render (a section's body, a partial, a block) is one token of its parent.
///
/// The bytes go into memory this value owns, a plain copy per write, and into the response's
/// ByteBuffer in one copy at the end. Written straight into a ByteBuffer, each of the thousand
/// writes of a friends page paid for the buffer's copy-on-write and exclusivity checks: a third
/// of the render (`make bench`). Without indentation, which is most of a page, everything is
/// written straight into one buffer, with no intermediate strings.
struct TemplateOutput: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var count = 0
    let indentation: String
    private let isIndented: Bool
    /// Whether the last byte written ends a line; kept only when indented.
    private var atLineStart = false

    init(indentation: String = "", capacity: Int) {
        self.indentation = indentation
        self.isIndented = !indentation.isEmpty
        self.capacity = max(capacity, 64)
        self.base = .allocate(byteCount: self.capacity, alignment: 1)
    }

    /// A page's output, in memory as big as the page was the last time, so that writing it
    /// never has to grow (and copy) it.
    init(sizeHint: TemplateSizeHint) {
        self.init(capacity: sizeHint.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written, as a response body, noting their size for the next render of the
    /// same template.
    consuming func finish(_ sizeHint: TemplateSizeHint) -> ByteBuffer {
        sizeHint.record(count)
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        buffer.writeBytes(bytes)
        return buffer
    }

    private var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    private mutating func write(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    private mutating func write(_ text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        (base, capacity) = (newBase, newCapacity)
    }

    /// Template text: one token, or several the compiler joined. A token holds at most one line
    /// (the parser ends a text token at its newline), so in an indented partial every line the
    /// text starts is a token starting a new line, and gets the indentation.
    mutating func append(_ text: StaticString) {
        guard isIndented else {
            write(text)
            return
        }
        let bytes = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard let last = bytes.last else { return }
        if atLineStart { write(indentation) }
        var lineStart = 0
        for index in bytes.indices.dropLast() where bytes[index] == UInt8(ascii: "\n") {
            write(UnsafeRawBufferPointer(rebasing: bytes[lineStart...index]))
            write(indentation)
            lineStart = index + 1
        }
        write(UnsafeRawBufferPointer(rebasing: bytes[lineStart...]))
        atLineStart = last == UInt8(ascii: "\n")
    }

    /// One token's value, escaped as `{{name}}` escapes it.
    mutating func appendEscaped(_ text: String) {
        if isIndented {
            guard let last = text.utf8.last else { return }
            if atLineStart { write(indentation) }
            atLineStart = last == UInt8(ascii: "\n")
        }
        var text = text
        text.withUTF8 { escape(UnsafeRawBufferPointer($0)) }
    }

    /// A number's digits (nothing in them to escape).
    mutating func appendEscaped(_ number: Int) {
        if isIndented {
            if atLineStart { write(indentation) }
            atLineStart = false
        }
        write(String(number))
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
        appendToken(child)
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
        var joined = TemplateOutput(capacity: 512)
        for element in elements {
            var child = TemplateOutput(indentation: indentation, capacity: 512)
            body(element, &child)
            joined.write(child.bytes)
        }
        appendToken(joined)
    }

    private mutating func appendToken(_ token: borrowing TemplateOutput) {
        let bytes = token.bytes
        if isIndented {
            guard let last = bytes.last else { return }
            if atLineStart { write(indentation) }
            atLineStart = last == UInt8(ascii: "\n")
        }
        write(bytes)
    }

    /// `&`, `<`, `>`, `"` and `'` as entities, the rest as it is (swift-mustache's `htmlEscape`),
    /// written run by run between the characters that need an entity.
    private mutating func escape(_ bytes: UnsafeRawBufferPointer) {
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
            write(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            write(entity)
            start = index + 1
        }
        write(UnsafeRawBufferPointer(rebasing: bytes[start...]))
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
