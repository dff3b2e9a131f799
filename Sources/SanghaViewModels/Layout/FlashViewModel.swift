import Foundation

/// A message shown once, on the page after a redirect (post/redirect/get).
///
/// Success flashes are a sentence ("Added Jane Doe."); error flashes carry an alert's title and
/// message, as a single-button alert does.
public struct FlashViewModel: Sendable, Equatable, Codable {
    public let isError: Bool
    /// Not `title`: a flash without one would, in Mustache, show the page's title instead (the
    /// name is looked up the context stack).
    public let errorTitle: String?
    public let message: String

    public static func success(_ message: String) -> FlashViewModel {
        FlashViewModel(isError: false, title: nil, message: message)
    }

    public static func error(title: String, message: String) -> FlashViewModel {
        FlashViewModel(isError: true, title: title, message: message)
    }

    public init(isError: Bool, title: String?, message: String) {
        self.isError = isError
        self.errorTitle = title
        self.message = message
    }

    /// The cookie that carries a flash to the next page keeps its names.
    private enum CodingKeys: String, CodingKey {
        case isError
        case errorTitle = "title"
        case message
    }
}
