import Foundation

/// A link a page shows: where it goes and what it says.
public struct LinkViewModel: Sendable, Equatable, Encodable {
    public let url: String
    public let label: String

    public init(url: String, label: String) {
        self.url = url
        self.label = label
    }
}
