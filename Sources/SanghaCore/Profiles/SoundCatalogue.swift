import Foundation

/// The sounds the app ships. A sound's name must be one of these.
public enum SoundCatalogue {
    public static let names = ["Bell", "Bowl", "Gong", "Chime", "Wood Block"]
    public static let defaultName = "Bell"

    public static func contains(_ name: String) -> Bool { names.contains(name) }
}
