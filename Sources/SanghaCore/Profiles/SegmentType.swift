import Foundation

/// The parts of a session: the meditation itself, and the optional warm-up and cool-down.
public enum SegmentType: String, CaseIterable, Codable, Sendable, Hashable {
    case main
    case warmUp
    case coolDown
}
