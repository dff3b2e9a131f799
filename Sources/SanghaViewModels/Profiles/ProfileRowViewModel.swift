import Foundation
import SanghaCore

/// One profile in a list: its name, the meditation's duration and the whole session's.
public struct ProfileRowViewModel: Sendable, Equatable, Encodable {
    public let id: Int
    public let name: String
    public let durationText: String
    public let totalText: String
    public let editURL: String
    public let deleteURL: String
    public let deleteLabel: String
    /// The delete button's text: "Delete".
    public let deleteText: String
    /// The question the browser asks before deleting.
    public let deleteConfirmation: String

    /// In `words`' language (a list page builds 50 rows a request: its phrases are joined, not
    /// formatted).
    public init(profile: Profile, words: Words) {
        self.id = profile.id
        self.name = words.isolated(profile.name)
        self.durationText = DurationFormatter.string(from: profile.duration)
        self.totalText = words.profilesRowSession(duration: DurationFormatter.string(from: profile.totalDuration))
        self.editURL = Paths.profile.url(profile.id)
        self.deleteURL = Paths.deleteProfile.url(profile.id)
        self.deleteLabel = words.profilesDeleteNamed(name: profile.name)
        self.deleteText = words.profilesDelete
        self.deleteConfirmation = words.profilesDeleteConfirmation(name: profile.name)
    }
}
