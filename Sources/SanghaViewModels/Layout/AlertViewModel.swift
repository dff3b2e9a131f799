import Foundation

/// An alert shown inline on a re-rendered form: what failed and what to do about it.
public struct AlertViewModel: Sendable, Equatable, Encodable {
    public let title: String
    public let message: String

    public init(title: String, message: String) {
        self.title = title
        self.message = message
    }
}
