import Foundation
import Hummingbird
import MultipartKit
import NIOCore
import NIOHTTP1

/// A `multipart/form-data` body (a form with a file), read once as it arrives by MultipartKit's
/// parser: each part by its name, at most `maxParts` parts and `limit` bytes, and the first
/// part handed to a check (the form's token) as soon as it is complete, before the rest is read.
///
/// MultipartKit's `FormDataDecoder` is not used for a body from outside: it builds its tree of
/// nested names (`f[]`, `f[a][b]`) by copying it for every part, so a body of many small parts
/// costs the square of their count in CPU. The parser itself is linear, and these forms have a
/// few named fields.
struct MultipartForm: Sendable {
    private var parts: [String: ByteBuffer] = [:]

    /// The text of the field `name`, if the form has it.
    func text(_ name: String) -> String? { parts[name].map { String(buffer: $0) } }

    /// The bytes of the field `name` (a file's content), if the form has it.
    func data(_ name: String) -> Data? { parts[name].map { Data($0.readableBytesView) } }

    /// More parts than any of Sangha's forms has.
    static let maxParts = 8

    /// The most bytes the parser may read without finding a header or body bytes: a header line,
    /// or a preamble, that never ends.
    static let maxStall = 16 * 1024

    /// Reads `body`. Larger than `limit`: 413. Broken, cut short, with more than `maxParts`
    /// parts, a part without a name or a name twice: 400. `firstPart` throws to refuse the form.
    static func read(
        _ body: RequestBody, boundary: String, limit: Int, maxParts: Int = maxParts,
        firstPart: (_ name: String, _ value: ByteBuffer) throws -> Void
    ) async throws -> MultipartForm {
        let collector = Collector(maxParts: maxParts)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in collector.header(name, value) }
        parser.onBody = { collector.body(&$0) }
        parser.onPartComplete = { collector.complete() }
        var size = 0
        var checked = false
        var progress = (callbacks: 0, size: 0)
        // The last bytes read, to see the closing boundary (the parser keeps its state to itself).
        let closing = Array("\r\n--\(boundary)--".utf8)
        var tail: [UInt8] = []
        do {
            for try await chunk in body {
                size += chunk.readableBytes
                tail = Array((tail + chunk.readableBytesView).suffix(closing.count + 64))
                guard size <= limit else {
                    throw UnreadableRequest.formTooLarge
                }
                do { try parser.execute(chunk) } catch { throw UnreadableRequest.formUnreadable }
                // The first part's check (the token) comes before whatever the rest of the chunk held;
                // a first part that cannot be the token is refused before it is read to its end.
                if !checked, let first = collector.first {
                    try firstPart(first.name, first.value)
                    checked = true
                } else if !checked, collector.firstIsNotToken {
                    try firstPart("", ByteBuffer())
                    throw UnreadableRequest.formUnreadable
                }
                if let problem = collector.problem { throw problem }
                if collector.callbacks != progress.callbacks {
                    progress = (collector.callbacks, size)
                } else if size - progress.size > maxStall {
                    throw UnreadableRequest.formUnreadable
                }
            }
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            throw UnreadableRequest.bodyEndedEarly
        }
        while let last = tail.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { tail.removeLast() }
        guard tail.suffix(closing.count).elementsEqual(closing), let first = collector.first else {
            throw UnreadableRequest.formUnreadable
        }
        if !checked { try firstPart(first.name, first.value) }
        return MultipartForm(parts: collector.parts)
    }

    /// What the parser's callbacks find, part by part (they cannot throw: a problem is kept and
    /// read after each chunk, and nothing more is kept after it).
    private final class Collector {
        /// Headers a part may have (a browser sends one or two).
        static let maxHeaders = 8
        /// The longest first part: a form's token is 64 characters.
        static let maxTokenSize = 256

        let maxParts: Int
        var parts: [String: ByteBuffer] = [:]
        var first: (name: String, value: ByteBuffer)?
        /// The first part is under way and is not the token: named otherwise, or too long.
        var firstIsNotToken = false
        var problem: UnreadableRequest?
        var count = 0
        /// How many times the parser has found something: a header, body bytes, a part's end.
        var callbacks = 0
        var headers = HTTPHeaders()
        var value = ByteBuffer()

        init(maxParts: Int) { self.maxParts = maxParts }

        func header(_ name: String, _ value: String) {
            callbacks += 1
            guard problem == nil else { return }
            guard headers.count < Self.maxHeaders else {
                problem = .formUnreadable
                return
            }
            headers.add(name: name, value: value)
        }

        func body(_ buffer: inout ByteBuffer) {
            callbacks += 1
            guard problem == nil else { return }
            value.writeBuffer(&buffer)
            if count == 0,
                value.readableBytes > Self.maxTokenSize
                    || MultipartPart(headers: headers, body: ByteBuffer()).name != "_csrf"
            {
                firstIsNotToken = true
            }
        }

        func complete() {
            callbacks += 1
            defer { (headers, value) = (HTTPHeaders(), ByteBuffer()) }
            guard problem == nil else { return }
            count += 1
            guard count <= maxParts else {
                problem = .formTooManyParts
                return
            }
            guard let name = MultipartPart(headers: headers, body: value).name, !name.isEmpty,
                parts[name] == nil
            else {
                problem = .formFieldUnnamed
                return
            }
            parts[name] = value
            if first == nil { first = (name, value) }
        }
    }
}
