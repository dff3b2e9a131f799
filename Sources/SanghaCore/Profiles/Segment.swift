import Foundation

/// A part of a session with its duration (seconds) and its sounds: one of each `SoundType`.
public struct Segment: Codable, Sendable, Equatable, Hashable {
    public var type: SegmentType
    public var enabled: Bool
    public var duration: Int
    public var sounds: [Sound]

    public init(type: SegmentType, enabled: Bool, duration: Int, sounds: [Sound]? = nil) {
        self.type = type
        self.enabled = enabled
        self.duration = duration
        self.sounds = sounds ?? SoundType.allCases.map { Sound(type: $0, enabled: $0 != .repeat) }
    }

    /// The sound of that type; a segment always has one of each.
    public subscript(sound type: SoundType) -> Sound {
        get { sounds.first { $0.type == type } ?? Sound(type: type, enabled: false) }
        set {
            if let index = sounds.firstIndex(where: { $0.type == type }) {
                sounds[index] = newValue
            } else {
                sounds.append(newValue)
            }
        }
    }
}
