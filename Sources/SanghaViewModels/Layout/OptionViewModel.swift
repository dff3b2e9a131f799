import Foundation

/// One choice of a `<select>`: what it posts, what it says, and whether it is the one chosen.
public struct OptionViewModel: Sendable, Equatable, Encodable {
    public let value: String
    public let label: String
    public let isSelected: Bool

    public init(value: String, label: String, isSelected: Bool) {
        (self.value, self.label, self.isSelected) = (value, label, isSelected)
    }
}
