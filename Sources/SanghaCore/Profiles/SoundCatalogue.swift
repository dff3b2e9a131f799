import Foundation

/// The sounds the app ships: each name has an audio file, `Public/sounds/` and its file name
/// (`Wood Block` → `wood-block.mp3`), made by `scripts/make-sounds.sh`. A sound's name must be
/// one of these.
public enum SoundCatalogue {
    public static let names = ["Bell", "Bowl", "Gong", "Chime", "Wood Block"]
    public static let defaultName = "Bell"

    public static func contains(_ name: String) -> Bool { names.contains(name) }

    /// The sound's name as a person reads it in `words`' language; a name not in the catalogue
    /// as it is.
    public static func label(of name: String, words: Words) -> String {
        switch name {
        case "Bell": words.profilesSoundBell
        case "Bowl": words.profilesSoundBowl
        case "Gong": words.profilesSoundGong
        case "Chime": words.profilesSoundChime
        case "Wood Block": words.profilesSoundWoodBlock
        default: name
        }
    }

    /// The file's name: the sound's name in lower case, words joined by `-`, then `.mp3`.
    public static func fileName(of name: String) -> String {
        name.lowercased().split(separator: " ").joined(separator: "-") + ".mp3"
    }

    /// Where the server serves the file: `/sounds/wood-block.mp3`.
    public static func path(of name: String) -> String {
        "/sounds/" + fileName(of: name)
    }
}
