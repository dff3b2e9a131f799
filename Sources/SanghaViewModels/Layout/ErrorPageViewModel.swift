import Foundation

/// A page that says a request could not be served: an unknown page, bad input, a failure.
public struct ErrorPageViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let status: Int
    public let heading: String
    public let message: String
    public let homeURL = "/"

    public init(status: Int, heading: String, message: String, flash: FlashViewModel? = nil) {
        self.layout = LayoutViewModel(title: heading, section: nil, flash: flash)
        self.status = status
        self.heading = heading
        self.message = message
    }

    public static func notFound(_ message: String = "There is no page at this address.") -> ErrorPageViewModel {
        ErrorPageViewModel(status: 404, heading: "Page not found", message: message)
    }
}
