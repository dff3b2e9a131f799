import HTTPTypes
import Hummingbird
import SanghaCore
import SanghaViewModels

/// A file a person downloads, written as it is read: its first part is read before the answer
/// begins (so a storage out of reach is a 503 page, not a 200 cut short), the rest a page at a
/// time, each written before the next is read. A failure later ends the connection: the file is
/// then incomplete, and the browser says the download failed.
struct Download<Item: Sendable>: Sendable {
    /// `sangha-history-2026-11-24.csv`.
    let fileName: String
    let contentType: String
    /// Written before the first item, between two, and after the last.
    let start: String
    let separator: String
    let end: String
    let line: @Sendable (Item) -> String
    /// The page after `last`, the last item written so far, `count` of them (nil and 0: the
    /// first page); an empty page ends the file.
    let page: @Sendable (_ last: Item?, _ count: Int) async throws -> [Item]

    func response() async throws -> Response {
        let first: [Item]
        do {
            first = try await page(nil, 0)
        } catch {
            throw HTTPError(
                .serviceUnavailable,
                message: StorageMessage.text(for: error, otherwise: "Reading failed. Please try again."))
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: contentType, .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"\(fileName)\"",
            ],
            body: ResponseBody { writer in
                var buffer = ByteBuffer(string: start)
                var items = first
                var count = 0
                while let last = items.last {
                    for item in items {
                        if count > 0 { buffer.writeString(separator) }
                        count += 1
                        buffer.writeString(line(item))
                    }
                    try await writer.write(buffer)
                    buffer.clear()
                    items = try await page(last, count)
                }
                buffer.writeString(end)
                try await writer.write(buffer)
                try await writer.finish(nil)
            })
    }
}

extension HTTPField.Name {
    static let contentDisposition = Self("Content-Disposition")!
}
