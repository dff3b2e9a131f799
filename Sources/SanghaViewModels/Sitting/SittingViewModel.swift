import Foundation
import SanghaCore

/// The sitting page, `/profiles/{id}/sit`: the profile's timeline, when each section begins and
/// each sound rings, written out so the page says what will happen without script; the script
/// reads the same rows (their seconds, sound and strokes) to run the session.
public struct SittingViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let editURL: String
    public let editLabel: String
    /// "Total session", before `totalText`.
    public let totalLabel: String
    public let totalText: String
    public let totalSeconds: Int
    public let events: [TimelineEventViewModel]
    /// The section the session begins with, shown before it starts.
    public let firstSection: String
    /// Where the script records a session run to the end or stopped after a minute.
    public let recordURL: String = Paths.sessions.url
    /// Where the script says the person sits (start, resume) and stops: their groups see it.
    public let presenceURL: String = Paths.sitting.url
    public let presenceStopURL: String = Paths.sittingStop.url
    public let profileID: Int
    /// The profile's name as it is now, posted with the session: should the profile be deleted
    /// before the session reaches Sangha (kept on the device), it is recorded under this name.
    public let profileName: String
    public let alert: AlertViewModel?
    /// The running session's words: its labels and buttons.
    public let sitter: SitterLabelsViewModel
    /// What the script says as the session runs, in the page's language; nil in English, the
    /// script's own words (so the English page stays as it was).
    public let scriptWords: SitterWordsViewModel?
    public let timelineHeading: String

    public init(profile: Profile, context: PageContext, alert: AlertViewModel? = nil) {
        let words = context.words
        let title = profile.displayName(words)
        layout = LayoutViewModel(title: words.sittingTitle(name: title), section: .profiles, context: context)
        heading = words.isolated(title)
        editURL = Paths.profile.url(profile.id)
        (editLabel, totalLabel, timelineHeading) = (
            words.sittingEditProfile, words.sittingTotalSession, words.sittingTimeline
        )
        sitter = SitterLabelsViewModel(words)
        scriptWords = words.language == .en ? nil : SitterWordsViewModel(words)
        let timeline = profile.timeline
        totalSeconds = timeline.duration
        totalText = DurationFormatter.string(from: timeline.duration)
        events = TimelineEventViewModel.events(of: timeline, assets: context.assets, words: words)
        firstSection = (timeline.sections.first?.segment ?? .main).title(in: words)
        profileID = profile.id
        profileName = profile.name
        self.alert = alert
    }

    /// What `GET /profiles/{id}/sit` shows.
    public static func load(id: Int, from repository: any ProfileRepository, context: PageContext) async
        -> LoadOutcome<SittingViewModel>
    {
        do {
            guard let profile = try await repository.get(id: id) else { return .notFound }
            return .page(SittingViewModel(profile: profile, context: context))
        } catch {
            return .failed(ProfileEditorViewModel.unavailable(error, context: context), .storage)
        }
    }
}

extension SittingViewModel {
    /// Records a session sat with profile `id` (`POST /sessions`): 303 back to the sitting page
    /// with "Session saved."; a session that breaks a rule (stopped before a minute, a length
    /// out of range, an unreadable start, a start in the future or sat more than 30 days ago:
    /// `SittingSession.refusal(now:)`) is the page again with why (422), nothing stored.
    ///
    /// No sit is lost. A profile that cannot be read (the storage failed) is 503 with why, never
    /// a 404: the page's script keeps the sit and sends it again. A profile that is gone (deleted
    /// while the sit was kept on the device, or never this person's: `profiles` holds only the
    /// person's own, so another person's id is gone too, and nothing tells whether it exists)
    /// records the sit under the name the page posted, the profile's name when the sit ran,
    /// checked as any profile name (`Profile.validateName`), with no profile; it leads to the
    /// history. A sit from a page older than that name (no `profileName`) is kept under "Profile",
    /// the name of a profile without one, rather than lost. Without the profile there is no
    /// sitting page to show again: a session that breaks a rule is an error page with why (422).
    public static func record(
        _ input: SittingSessionInput,
        profiles: any ProfileRepository,
        sessions: any SittingSessionRepository,
        context: PageContext
    ) async -> SubmitOutcome<SittingViewModel> {
        let context = context.withoutFlash
        let words = context.words
        let notSavedHeading = words.sittingNotSavedHeading
        func failed(_ error: any Error) -> String {
            StorageMessage.isUnreachable(error) ? words.storageUnreachable : words.sittingCouldNotSave
        }
        guard let id = input.profile.flatMap({ Int($0) }) else { return .notFound }
        let profile: Profile?
        do {
            profile = try await profiles.get(id: id)
        } catch {
            return .unavailable(
                ErrorPageViewModel(heading: notSavedHeading, message: failed(error), context: context), .storage)
        }
        func refused(_ message: String) -> SubmitOutcome<SittingViewModel> {
            guard let profile else {
                return .unavailable(
                    ErrorPageViewModel(heading: notSavedHeading, message: message, context: context), .invalid)
            }
            return .invalid(
                SittingViewModel(
                    profile: profile, context: context,
                    alert: AlertViewModel(title: words.sittingNotSaved, message: message)))
        }
        let name: String
        if let profile {
            name = profile.name
        } else if let posted = input.profileName {
            if let refusal = Profile.validateName(posted, words: words) { return refused(refusal) }
            name = posted.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            // Kept under the English "Profile": a name stored with the sit, not a word of a page.
            name = Profile(name: "", segments: []).displayName
        }
        guard let (startedAt, seconds, completed) = input.timing else { return refused(words.sittingUnreadable) }
        let session = SittingSession(
            profileID: profile?.id, profileName: name, startedAt: startedAt, seconds: seconds, completed: completed)
        if let refusal = session.refusal(now: context.now, words: words) { return refused(refusal) }
        do {
            _ = try await sessions.record(session, clientID: input.clientId)
            let back = profile.map { Paths.sit.url($0.id) } ?? Paths.history.url
            return .redirect(Redirect(to: back, flash: .success(words.sittingSaved)))
        } catch {
            let message = failed(error)
            guard let profile else {
                return .unavailable(
                    ErrorPageViewModel(heading: notSavedHeading, message: message, context: context), .storage)
            }
            return .failed(
                SittingViewModel(
                    profile: profile, context: context,
                    alert: AlertViewModel(title: words.sittingNotSaved, message: message)),
                .storage)
        }
    }
}

/// A session as the sitting page's script posts it: the profile's id and its name as the page
/// showed it (under which the session is kept should the profile be gone by the time it
/// arrives), the start (ISO 8601), the seconds sat and whether it ran to the end
/// (`true`/`false`).
/// A group sit's page posts the group and the sit instead of a profile.
public struct SittingSessionInput: Sendable, Equatable, Decodable {
    public var profile: String?
    public var profileName: String?
    public var group: String?
    public var sit: String?
    public var startedAt: String?
    public var seconds: String?
    public var completed: String?
    /// The id the page gave the sit when it kept it on the device (`crypto.randomUUID()`): the
    /// same sit posted again is recorded once.
    public var clientId: String?

    public init(
        profile: String? = nil, profileName: String? = nil, group: String? = nil, sit: String? = nil,
        startedAt: String?, seconds: String?, completed: String?, clientId: String? = nil
    ) {
        (self.profile, self.profileName, self.group, self.sit) = (profile, profileName, group, sit)
        (self.startedAt, self.seconds, self.completed) = (startedAt, seconds, completed)
        self.clientId = clientId
    }

    /// Whether a group sit's page posted it.
    public var isGroupSit: Bool { group != nil || sit != nil }

    /// Its start, seconds and outcome, or nil when one of them cannot be read (a client's id
    /// sent must be one: letters, digits and "-").
    var timing: (startedAt: Date, seconds: Int, completed: Bool)? {
        if let clientId, !SittingSession.isClientID(clientId) { return nil }
        guard let startedAt = startedAt.flatMap(SittingSession.date(iso8601:)),
            let seconds = seconds.flatMap({ Int($0) }),
            let completed = completed.flatMap({ Bool($0) })
        else { return nil }
        return (startedAt, seconds, completed)
    }
}

/// A row of the timeline: at `timeText` (`05:00`), what happens. A repeating sound is one row,
/// however often it rings: its `seconds` are its first ring (its section's start plus the
/// interval) and its text says the rest, "every 01:00 from 01:00 to 20:00", from that first ring
/// to its section's end (it rings strictly before the end, never at it); the script rings it at
/// `seconds`, then every `interval` seconds while before `until`.
///
/// The script reads a row only from its data attributes (the template writes each field below
/// as one), never from its text: what it announces is `says`, written here in the page's
/// language, so no word of the script depends on the wording.
public struct TimelineEventViewModel: Sendable, Equatable, Encodable {
    public let seconds: Int
    public let timeText: String
    public let text: String
    /// What the running session says each time this row happens (`data-says`): "Warm Up
    /// begins", "Gong rings 3 times" (a repeating sound's words for one ring, without "every
    /// …"), "The session ends".
    public let says: String
    /// The sound to play, for a ring; nil where a section begins or the session ends.
    public let soundURL: String?
    public let hasSound: Bool
    public let strokes: Int
    /// Where a section begins: its title, which the running session shows from then on.
    public let section: String?
    /// Whether this row is a repeating sound, which rings again every `interval` seconds.
    public let repeats: Bool
    /// For a repeating sound, the seconds between two rings; 0 for a row that happens once.
    public let interval: Int
    /// For a repeating sound, its section's end in seconds from the start: it rings only
    /// before it. 0 for a row that happens once.
    public let until: Int

    init(
        seconds: Int, text: String, says: String? = nil, soundURL: String? = nil, strokes: Int = 0,
        section: String? = nil, interval: Int = 0, until: Int = 0
    ) {
        self.seconds = seconds
        timeText = DurationFormatter.string(from: seconds)
        self.text = text
        self.says = says ?? text
        self.soundURL = soundURL
        hasSound = soundURL != nil
        self.strokes = strokes
        self.section = section
        repeats = interval > 0
        self.interval = interval
        self.until = until
    }

    /// Each section's start, each ring in order (a repeating sound once, at its first ring),
    /// and the session's end. Where one section ends and the next begins, the first's end sound
    /// comes before the second begins. As many rows as the profile has sections and sounds,
    /// however long its sections and however short its intervals.
    /// In `words`' language.
    static func events(of timeline: Timeline, assets: AssetURLs, words: Words) -> [TimelineEventViewModel] {
        var events: [TimelineEventViewModel] = []
        var rings = timeline.rings[...]
        for section in timeline.sections {
            while let ring = rings.first,
                ring.time < section.start || (ring.time == section.start && ring.segment != section.segment)
            {
                events.append(.ring(ring, assets, words))
                rings.removeFirst()
            }
            let title = section.segment.title(in: words)
            events.append(
                TimelineEventViewModel(
                    seconds: section.start, text: words.sittingSectionBegins(section: title), section: title))
        }
        events += rings.map { .ring($0, assets, words) }
        events.append(.text(words.sittingSessionEnds, at: timeline.duration))
        return events
    }

    private static func text(_ text: String, at seconds: Int) -> TimelineEventViewModel {
        TimelineEventViewModel(seconds: seconds, text: text)
    }

    /// "Bell rings", "Gong rings 3 times"; a repeating sound adds "every 01:00 from 01:00 to
    /// 20:00": its interval, its first ring and its section's end.
    private static func ring(_ ring: Timeline.Ring, _ assets: AssetURLs, _ words: Words) -> TimelineEventViewModel {
        let sound = SoundCatalogue.label(of: ring.name, words: words)
        let once =
            ring.strokes > 1 ? words.sittingRingsTimes(ring.strokes, sound: sound) : words.sittingRings(sound: sound)
        var text = once
        if let repetition = ring.repetition {
            text = words.sittingRingsEvery(
                rings: once, interval: DurationFormatter.string(from: repetition.interval),
                start: DurationFormatter.string(from: ring.time), end: DurationFormatter.string(from: repetition.end))
        }
        return TimelineEventViewModel(
            seconds: ring.time,
            text: text,
            says: once,
            soundURL: assets.sound(named: ring.name),
            strokes: ring.strokes,
            interval: ring.repetition?.interval ?? 0,
            until: ring.repetition?.end ?? 0
        )
    }
}

/// The sitting page's labels and buttons, in its language.
public struct SitterLabelsViewModel: Sendable, Equatable, Encodable {
    public let now: String
    public let timeLeft: String
    public let progress: String
    public let start: String
    public let withoutTimer: String
    public let pause: String
    public let resume: String
    public let stop: String

    init(_ words: Words) {
        (now, timeLeft, progress) = (words.sittingNow, words.sittingTimeLeft, words.sittingProgress)
        (start, withoutTimer) = (words.sittingStart, words.sittingWithoutTimer)
        (pause, resume, stop) = (words.sittingPause, words.sittingResume, words.sittingStop)
    }
}

/// What the sitting page's script says as a session runs, as the page's data attributes
/// (`data-paused-at`…; `{time}` where it puts the time, 05:00).
public struct SitterWordsViewModel: Sendable, Equatable, Encodable {
    public let soundNotLoaded: String
    public let complete: String
    public let startAgain: String
    public let saved: String
    public let kept: String
    public let notSaved: String
    public let timeSat: String
    public let timeLeft: String
    public let noAudio: String
    public let pausedAt: String
    public let resumed: String
    public let satFor: String
    public let stoppedAt: String

    init(_ words: Words) {
        soundNotLoaded = words.sittingSoundNotLoaded
        (complete, startAgain) = (words.sittingComplete, words.sittingStartAgain)
        (saved, kept, notSaved) = (words.sittingSaved, words.sittingKept, words.sittingScriptNotSaved)
        (timeSat, timeLeft) = (words.sittingTimeSat, words.sittingTimeLeft)
        noAudio = words.sittingNoAudio
        (pausedAt, resumed) = (words.sittingPausedAt(time: "{time}"), words.sittingResumed)
        (satFor, stoppedAt) = (words.sittingSatFor(time: "{time}"), words.sittingStoppedAt(time: "{time}"))
    }
}
