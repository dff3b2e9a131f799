import Foundation

/// When a sound plays in its segment: at its start, at its end, or every interval.
public enum SoundType: String, CaseIterable, Codable, Sendable, Hashable {
    case begin
    case end
    case `repeat`
}
