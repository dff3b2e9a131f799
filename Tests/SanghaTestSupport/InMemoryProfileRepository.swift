import Foundation
import SanghaCore

/// Profiles in memory, with the same version rules as the SQLite store. `failing` makes every
/// call fail as a broken disk would.
public actor InMemoryProfileRepository: ProfileRepository {
    private var profiles: [Int: Profile] = [:]
    private var nextID = 1
    private let failing: Bool

    public init(_ profiles: [Profile] = [], failing: Bool = false) {
        self.failing = failing
        for profile in profiles {
            self.profiles[profile.id] = profile
            nextID = max(nextID, profile.id + 1)
        }
    }

    public func list(limit: Int, offset: Int) async throws(ProfileRepositoryError) -> ProfileListPage {
        try check()
        let sorted = profiles.values.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        return ProfileListPage(profiles: Array(sorted.dropFirst(offset).prefix(limit)), total: sorted.count)
    }

    public func get(id: Int) async throws(ProfileRepositoryError) -> Profile? {
        try check()
        return profiles[id]
    }

    public func create(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        try check()
        var created = profile
        created.id = nextID
        created.version = 1
        nextID += 1
        profiles[created.id] = created
        return created
    }

    public func update(_ profile: Profile) async throws(ProfileRepositoryError) -> Profile {
        try check()
        guard let stored = profiles[profile.id] else { throw .notFound }
        guard profile.version == 0 || stored.version == profile.version else { throw .conflict(current: stored) }
        var updated = profile
        updated.version = stored.version + 1
        profiles[updated.id] = updated
        return updated
    }

    public func delete(id: Int) async throws(ProfileRepositoryError) -> Bool {
        try check()
        return profiles.removeValue(forKey: id) != nil
    }

    private func check() throws(ProfileRepositoryError) {
        if failing { throw .storage("the test made this repository fail") }
    }
}
