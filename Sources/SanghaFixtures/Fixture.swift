import SanghaViewModels
import SanghaWeb

/// One named state of a page or component.
public struct Fixture: Sendable {
    public let name: String
    public let value: any Renderable

    public init(_ name: String, _ value: any Renderable) {
        self.name = name
        self.value = value
    }

    public var template: String { type(of: value).template }
}
