import Hummingbird
import SanghaViewModels
import Synchronization

/// Where a compiled template writes, with the same rule swift-mustache renders by: inside an
/// indented partial, a token that starts a new line starts with the indentation; a nested
/// render (a section's body, a partial, a block, a list's element) is one token of its parent.
///
/// The bytes go into memory this value owns, a plain copy per write, and into the response's
/// ByteBuffer in one copy at the end. Written straight into a ByteBuffer, each of the thousand
/// writes of a friends page paid for the buffer's copy-on-write and exclusivity checks: a third
/// of the render (`make bench`).
///
/// Nested renders write into the same memory too. swift-mustache renders each into a string of
/// its own and appends it as one token; here a nested render only notes where it began
/// (`enter`, `leave`), and the two facts that rule needs are read off the memory: a render is
/// at a line's start when its last byte so far is a newline, and the first byte of a nested
/// render that began at its parent's line start is preceded by the parent's indentation
/// (`pending`). No closures either: a closure per section copied the view models it captured.
struct TemplateOutput: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var count = 0
    /// The indentation of the partial being rendered: every line a token starts gets it.
    private var indentation = ""
    /// Where the current nested render began: before it, nothing counts as its line start.
    private var tokenStart = 0
    /// The enclosing render's indentation, written before this render's first byte because it
    /// began at the start of a line; nil once written, or when it did not.
    private var pending: String?

    init(capacity: Int) {
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
        buffer.writeBytes(UnsafeRawBufferPointer(start: base, count: count))
        return buffer
    }

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
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { write(UnsafeRawBufferPointer($0)) }
        if done == nil {
            var text = text
            text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
        }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        (base, capacity) = (newBase, newCapacity)
    }

    /// Whether the current render's last byte ends a line (a render that wrote nothing yet has
    /// not started one).
    private var atLineStart: Bool {
        count > tokenStart && base.load(fromByteOffset: count - 1, as: UInt8.self) == UInt8(ascii: "\n")
    }

    /// Before a token's first byte, the indentation owed to its line: the enclosing render's
    /// when this render has written nothing yet, else this render's own at a line start.
    private mutating func startToken() {
        if let prefix = pending {
            pending = nil
            write(prefix)
        } else if atLineStart {
            write(indentation)
        }
    }

    /// Template text: one token, or several the compiler joined, each line after its first
    /// already indented by the compiler (it knows which partials the text stands in). Only the
    /// first line's indentation depends on what was written before it.
    mutating func append(_ text: StaticString) {
        guard text.utf8CodeUnitCount > 0 else { return }
        if !indentation.isEmpty { startToken() }
        write(text)
    }

    /// One token's value, escaped as `{{name}}` escapes it (and with `isolates`, as `appendText`).
    mutating func appendEscaped(_ text: String, isolates: Bool = false) {
        guard !text.isEmpty else { return }
        if !indentation.isEmpty { startToken() }
        // A native string lends its bytes as they are; `withUTF8` would need a copy to mutate.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable {
            escape(UnsafeRawBufferPointer($0), isolates: isolates)
        }
        if done == nil {
            var text = text
            text.withUTF8 { escape(UnsafeRawBufferPointer($0), isolates: isolates) }
        }
    }

    /// One token's value in a page's text (not in a tag, nor in `<title>`, `<textarea>`,
    /// `<option>`, a script or a style, where it is written by `appendEscaped`), escaped, with a
    /// name's isolates (`Words.isolated`, U+2068 … U+2069) written as `<bdi>` … `</bdi>`: the
    /// markup is the template's, the name between them escaped. Each value's are balanced: an
    /// end with no start stays a character, a start the value does not end is ended after it.
    mutating func appendText(_ text: String) {
        appendEscaped(text, isolates: true)
    }

    /// A number's digits (nothing in them to escape).
    mutating func appendEscaped(_ number: Int) {
        if !indentation.isEmpty { startToken() }
        write(String(number))
    }

    mutating func appendEscaped(_ flag: Bool) {
        append(flag ? "true" : "false")
    }

    /// Where a nested render began, to be handed back to `leave` when it ends.
    struct Nesting {
        fileprivate let indentation: String
        fileprivate let tokenStart: Int
        fileprivate let pending: String?
        fileprivate let count: Int
    }

    /// Begins a nested render (a section's body, a partial with `extra` more indentation, a
    /// block), one token of the current one.
    mutating func enter(indentation extra: String = "") -> Nesting {
        let outer = Nesting(indentation: indentation, tokenStart: tokenStart, pending: pending, count: count)
        if atLineStart { pending = indentation }
        if !extra.isEmpty { indentation += extra }
        tokenStart = count
        return outer
    }

    /// Begins the next element of a list section: a render of its own inside the section's.
    mutating func startElement() {
        tokenStart = count
    }

    /// Ends the nested render `enter` began.
    mutating func leave(_ outer: Nesting) {
        if count == outer.count { pending = outer.pending }
        (indentation, tokenStart) = (outer.indentation, outer.tokenStart)
    }

    /// Where a section its view model keeps the rendering of (`KeptRendering`) began: `keep`
    /// reads its bytes off from here.
    struct KeepMark {
        fileprivate let count: Int
        fileprivate let indentation: String
        fileprivate let pending: String?
    }

    /// Writes the bytes `kept` holds for the section at `site`, when it began with the same
    /// indentation owed as this one: the same bytes its render would write. False when it holds
    /// none; the section is then rendered (from `keeping()`) and kept (`keep`).
    mutating func replay(_ kept: KeptRendering, site: Int) -> Bool {
        guard let entry = kept.entry(site: site, indentation: indentation, pending: pending) else { return false }
        entry.bytes.withUnsafeBytes { write($0) }
        pending = entry.pendingAfter
        return true
    }

    func keeping() -> KeepMark {
        KeepMark(count: count, indentation: indentation, pending: pending)
    }

    /// Keeps in `kept` what the section at `site` wrote since `mark`.
    func keep(_ kept: KeptRendering, site: Int, from mark: KeepMark) {
        let bytes = Array(UnsafeRawBufferPointer(start: base + mark.count, count: count - mark.count))
        kept.keep(
            KeptRendering.Entry(
                site: site, indentation: mark.indentation, pending: mark.pending, bytes: bytes, pendingAfter: pending))
    }

    /// `&`, `<`, `>`, `"` and `'` as entities, the rest as it is (swift-mustache's `htmlEscape`),
    /// written run by run between the characters that need an entity. The runs are found eight
    /// bytes at a time (`mayNeedEntity`): a byte at a time, escaping was 15 % of a history page's
    /// instructions.
    ///
    /// With `isolates`, U+2068 and U+2069 (E2 81 A8, E2 81 A9) are looked for too, as `<bdi>`
    /// and `</bdi>` (`appendText`).
    private mutating func escape(_ bytes: UnsafeRawBufferPointer, isolates: Bool = false) {
        var start = 0
        var index = 0
        var open = 0
        while index < bytes.count {
            if bytes.count - index >= 8 {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if !Self.mayNeedEntity(word), !isolates || !Self.mayHoldIsolate(word) {
                    index += 8
                    continue
                }
            }
            let entity: StaticString
            var length = 1
            switch bytes[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            case 0xE2
            where isolates && index + 2 < bytes.count && bytes[index + 1] == 0x81
                && (bytes[index + 2] == 0xA8 || (bytes[index + 2] == 0xA9 && open > 0)):
                length = 3
                if bytes[index + 2] == 0xA8 {
                    open += 1
                    entity = "<bdi>"
                } else {
                    open -= 1
                    entity = "</bdi>"
                }
            default:
                index += 1
                continue
            }
            write(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            write(entity)
            index += length
            start = index
        }
        write(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        for _ in 0..<open { write("</bdi>" as StaticString) }
    }

    /// Whether any of `word`'s eight bytes is 0xE2, the first of an isolate's three.
    static func mayHoldIsolate(_ word: UInt64) -> Bool {
        zeroBytes(word, 0xE2) & 0x8080_8080_8080_8080 != 0
    }

    /// Whether any of `word`'s eight bytes may be one `escape` replaces.
    static func mayNeedEntity(_ word: UInt64) -> Bool {
        let found =
            zeroBytes(word, UInt8(ascii: "&")) | zeroBytes(word, UInt8(ascii: "<"))
            | zeroBytes(word, UInt8(ascii: ">")) | zeroBytes(word, UInt8(ascii: "\""))
            | zeroBytes(word, UInt8(ascii: "'"))
        return found & 0x8080_8080_8080_8080 != 0
    }

    /// `word`'s bytes equal to `byte`, each marked by its high bit: a byte that is zero once the
    /// word is xor-ed with `byte`. A borrow can mark a byte after a true find too, never hide
    /// one, so no mark means `byte` is not there.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let masked = word ^ (ones &* UInt64(byte))
        return (masked &- ones) & ~masked
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
