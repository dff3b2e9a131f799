import Foundation
import SanghaCore

/// A group's "Sitting now": who is sitting, with what, since when. Its own template
/// (`Groups/group-sitting-now`) is the section of the group's page, and the same compiled
/// template renders each event of `GET /groups/{id}/events` that replaces it.
public struct GroupSittingNowViewModel: Sendable, Equatable, Encodable {
    public let heading: String
    public let hasSitters: Bool
    public let sitters: [GroupSitterViewModel]
    /// "No one is sitting now."; nil when someone is.
    public let emptyText: String?
    /// The event stream that keeps the section current.
    public let eventsURL: String

    public init(group: Int, sitting: [SittingNow], timeZone: TimeZone, words: Words) {
        heading = words.groupsSittingNow
        sitters = sitting.map { GroupSitterViewModel($0, timeZone: timeZone, words: words) }
        hasSitters = !sitters.isEmpty
        emptyText = sitters.isEmpty ? words.groupsNoOneSitting : nil
        eventsURL = Paths.groupEvents.url(group)
    }
}

/// "Ana Lima · Morning sit · since 07:02".
public struct GroupSitterViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let profileName: String
    public let sinceText: String
    public let sinceISO: String

    init(_ sitter: SittingNow, timeZone: TimeZone, words: Words) {
        name = words.isolated(sitter.name)
        profileName = sitter.inAnotherGroupsSit ? words.groupsAGroupSit : words.isolated(sitter.profileName)
        sinceText = words.groupsSince(time: CalendarText.time(sitter.since, timeZone: timeZone, words: words))
        sinceISO = CalendarText.iso(sitter.since)
    }
}

/// What the sitting page's script says as a person sits: `POST /sitting` when they start or
/// resume (with the seconds still to sit), `POST /sitting/stop` when they stop or leave the page.
/// Each answers the ids of the person's groups, whose "Sitting now" changed.
public enum SittingPresence {
    public enum Outcome: Sendable, Equatable {
        /// Said: these groups' pages show it.
        case announced(groups: [Int])
        /// No such profile of this person's, or no such sit of theirs.
        case notFound
        case invalid(String)
        case failed(String)
    }

    public struct Input: Sendable, Equatable, Decodable {
        public var profile: String?
        public var seconds: String?
        /// A group sit's group and id, instead of a profile.
        public var group: String?
        public var sit: String?

        public init(profile: String? = nil, seconds: String? = nil, group: String? = nil, sit: String? = nil) {
            (self.profile, self.seconds, self.group, self.sit) = (profile, seconds, group, sit)
        }
    }

    /// The person sits with the profile in `input` for `input.seconds` (at most a day; the
    /// profile's whole time when not given), or in the group sit in `input` until it ends (from
    /// ten minutes before it begins). A refusal is in `words`' language.
    public static func start(
        _ input: Input, profiles: any ProfileRepository, groups: any GroupRepository, now: Date,
        words: Words
    ) async -> Outcome {
        if input.sit != nil || input.group != nil {
            return await join(input, groups: groups, now: now, words: words)
        }
        guard let id = input.profile.flatMap({ Int($0) }) else { return .invalid(words.groupsPresenceNoProfile) }
        var seconds: Int?
        if let text = input.seconds, !text.isEmpty {
            guard let value = Int(text), value > 0, Double(value) <= SittingNow.longest else {
                return .invalid(
                    words.groupsPresenceSeconds(least: words.number(1), most: words.number(Int(SittingNow.longest))))
            }
            seconds = value
        }
        return await saving(words) {
            guard let profile = try await profiles.get(id: id) else { return .notFound }
            let length = seconds ?? Timeline.duration(of: profile)
            let name = profile.displayName
            return .announced(
                groups: try await groups.startSitting(
                    profileName: name, at: now, until: now.addingTimeInterval(TimeInterval(length))))
        }
    }

    private static func join(_ input: Input, groups: any GroupRepository, now: Date, words: Words) async
        -> Outcome
    {
        guard let group = input.group.flatMap({ Int($0) }), let id = input.sit.flatMap({ Int($0) }) else {
            return .notFound
        }
        return await saving(words) {
            guard let sit = try await groups.sit(id, of: group) else { return .notFound }
            if sit.cancelled { return .invalid(words.groupsSitCancelled) }
            guard let occurrence = sit.occurrence(at: now),
                GroupSit.isOpen(occurrence, at: now)
            else { return .invalid(words.groupsNotOpen) }
            return .announced(
                groups: try await groups.startSitting(
                    profileName: sit.name, sit: sit.id, at: now, until: occurrence.end))
        }
    }

    public static func stop(groups: any GroupRepository, words: Words) async -> Outcome {
        await saving(words) { .announced(groups: try await groups.stopSitting()) }
    }

    private static func saving(_ words: Words, _ body: () async throws -> Outcome) async -> Outcome {
        do {
            return try await body()
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch {
            return .failed(StorageMessage.text(for: error, otherwise: words.groupsSavingFailed, words: words))
        }
    }
}

extension SittingPresence.Outcome {
    /// What the groups' open pages are told: each group that shows the person changed.
    public var events: [GroupEvent] {
        if case .announced(let groups) = self { groups.map { .changed(group: $0) } } else { [] }
    }
}
