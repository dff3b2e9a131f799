import Foundation

/// A sound of a segment. The repeating sound plays every `interval` seconds, `iterations`
/// strokes each time.
public struct Sound: Codable, Sendable, Equatable, Hashable {
    public var type: SoundType
    public var enabled: Bool
    public var name: String
    public var iterations: Int
    public var interval: Int

    public static let iterationsRange = 1...10

    public init(
        type: SoundType, enabled: Bool = true, name: String = SoundCatalogue.defaultName, iterations: Int = 1,
        interval: Int = 60
    ) {
        self.type = type
        self.enabled = enabled
        self.name = name
        self.iterations = iterations
        self.interval = interval
    }
}
