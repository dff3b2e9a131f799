import Foundation
import SanghaCore

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
    /// What a screen reader calls the links ("Pages"), and their words.
    public let navigationLabel: String
    public let previousLabel: String
    public let nextLabel: String

    /// nil when `pageCount` is 1: nothing to page through. `parameters` are kept in every link
    /// (a search's `q`), before `page`.
    public init?(
        page: Int, pageCount: Int, path: String, parameters: [(name: String, value: String)] = [],
        words: Words
    ) {
        guard pageCount > 1 else { return nil }
        self.page = page
        self.pageCount = pageCount
        label = words.pagingPageOf(page: words.number(page), pages: words.number(pageCount))
        (navigationLabel, previousLabel, nextLabel) = (words.pagingLabel, words.pagingPrevious, words.pagingNext)
        previousURL = page > 1 ? Self.url(path: path, page: page - 1, parameters: parameters) : nil
        nextURL = page < pageCount ? Self.url(path: path, page: page + 1, parameters: parameters) : nil
    }

    /// How many pages `rows` rows fill: at least one, so an empty list has its first page.
    public static func pageCount(rows: Int, pageSize: Int = pageSize) -> Int {
        max(1, (rows + pageSize - 1) / pageSize)
    }

    /// The rows of page `page` (from 1) of `rows`; none past the last.
    public static func slice<Row>(_ rows: [Row], page: Int, pageSize: Int = pageSize) -> ArraySlice<Row> {
        let start = min(rows.count, offset(page: page, pageSize: pageSize) ?? rows.count)
        return rows[start..<min(rows.count, start + pageSize)]
    }

    /// How many rows come before page `page`; nil when that is beyond any count (a page
    /// number in the quintillions).
    public static func offset(page: Int, pageSize: Int = pageSize) -> Int? {
        let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: pageSize)
        return overflow ? nil : offset
    }

    static func url(path: String, page: Int, parameters: [(name: String, value: String)] = []) -> String {
        var items = parameters.map { URLQueryItem(name: $0.name, value: $0.value) }
        if page > 1 { items.append(URLQueryItem(name: "page", value: "\(page)")) }
        guard !items.isEmpty else { return path }
        var components = URLComponents()
        components.queryItems = items
        // A `+` left as it is would read back as a space (a search for "+44").
        let query = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return "\(path)?\(query)"
    }
}
