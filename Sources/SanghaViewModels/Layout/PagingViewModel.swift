import Foundation

/// Where a paged list is: "Page 2 of 7", with links to the pages before and after it
/// (`?page=N`; the first page is the plain address). A list that fits on one page has none.
public struct PagingViewModel: Sendable, Equatable, Encodable {
    /// Rows on a page of every paged list.
    public static let pageSize = 50

    public let page: Int
    public let pageCount: Int
    public let label: String
    public let previousURL: String?
    public let nextURL: String?

    /// nil when `pageCount` is 1: nothing to page through.
    public init?(page: Int, pageCount: Int, path: String) {
        guard pageCount > 1 else { return nil }
        self.page = page
        self.pageCount = pageCount
        label = "Page \(page) of \(pageCount)"
        previousURL = page > 1 ? Self.url(path: path, page: page - 1) : nil
        nextURL = page < pageCount ? Self.url(path: path, page: page + 1) : nil
    }

    /// How many pages `rows` rows fill: at least one, so an empty list has its first page.
    public static func pageCount(rows: Int, pageSize: Int = pageSize) -> Int {
        max(1, (rows + pageSize - 1) / pageSize)
    }

    static func url(path: String, page: Int) -> String {
        page == 1 ? path : "\(path)?page=\(page)"
    }
}
