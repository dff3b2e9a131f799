import Foundation
import SanghaCore

/// A group sit's page, `/groups/{id}/sits/{sit}`: the sit's timeline, when it begins, who is in
/// it (kept current by the group's event stream), and "Join" from ten minutes before it begins.
/// The script learns how far the browser's clock is from the server's (`clockURL`, several
/// round trips, the quickest kept) and plays the timeline from the instant the sit begins by the
/// server's clock (`startsAtMilliseconds`), so every member's bells ring together; who joins
/// late hears only what is still to come.
public struct GroupSitViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let groupName: String
    public let groupURL: String
    /// "Tue 24 Nov 2026, 19:00 · every week", or "Under way, until 19:30".
    public let whenText: String
    /// "This sit is over.", "A host cancelled this sit."; nil while it is to come or under way.
    public let overText: String?
    /// Whether it is to come or under way: the script may offer "Join".
    public let isAhead: Bool
    public let hint: String
    /// "With" before the group's name; the sitter's "Now:", "Time left", "Join" and "Leave", its
    /// progress bar's name, and the timeline's heading.
    public let withLabel: String
    public let nowLabel: String
    public let timeLeftLabel: String
    public let progressLabel: String
    /// What the script says as the sit runs and before it begins, in the page's language; nil in
    /// English, the script's own words (so the English page stays as it was).
    public let scriptWords: GroupSitterWordsViewModel?
    public let joinLabel: String
    public let leaveLabel: String
    public let timelineHeading: String
    public let totalText: String
    public let totalSeconds: Int
    public let events: [TimelineEventViewModel]
    public let firstSection: String
    /// The time it begins (this week's, for a weekly sit), in milliseconds since 1970 by the
    /// server's clock; and from when members may join.
    public let startsAtMilliseconds: Int
    public let joinsFromMilliseconds: Int
    public let startISO: String
    /// Where the script reads the server's clock.
    public let clockURL: String = Paths.clock.url
    public let recordURL: String = Paths.sessions.url
    public let presenceURL: String = Paths.sitting.url
    public let presenceStopURL: String = Paths.sittingStop.url
    public let groupID: Int
    public let sitID: Int
    /// Kept current by the group's event stream (`eventsURL`).
    public let people: GroupSitPeopleViewModel
    public let eventsURL: String
    /// A host's "Cancel sit"; nil for the other members.
    public let cancelURL: String?
    public let cancelLabel: String
    /// "Add to calendar": the sit as an iCalendar file; nil once it is over or cancelled.
    public let calendarURL: String?
    public let calendarLabel: String
    public let cancelConfirm: String
    public let alert: AlertViewModel?

    /// The event stream of the sit's page: the group's, with the part that says who is in it.
    public static func eventsURL(group: Int, sit: Int) -> String {
        "\(Paths.groupEvents.url(group))?sit=\(sit)"
    }

    public init(_ page: GroupSitPage, context: PageContext, alert: AlertViewModel? = nil) {
        let (sit, group) = (page.sit, page.group)
        let words = context.words
        layout = LayoutViewModel(title: words.groupsSitTitle(name: sit.name), section: .groups, context: context)
        (hint, withLabel, nowLabel) = (words.groupsSitHint, words.groupsWith, words.groupsSitterNow)
        (timeLeftLabel, progressLabel) = (words.groupsTimeLeft, words.groupsSitProgress)
        (joinLabel, leaveLabel, timelineHeading) = (words.groupsJoin, words.groupsLeaveSit, words.groupsTimeline)
        (cancelLabel, calendarLabel, cancelConfirm) = (
            words.groupsCancelSit, words.groupsAddToCalendar, words.groupsCancelConfirm
        )
        scriptWords = words.language == .en ? nil : GroupSitterWordsViewModel(words)
        heading = words.isolated(sit.name)
        groupName = words.isolated(group.name)
        groupURL = Paths.group.url(group.id)
        let occurrence =
            sit.cancelled ? nil : sit.occurrence(at: context.now)
        let shown = occurrence ?? DateInterval(start: sit.startsAt, duration: sit.duration)
        if occurrence != nil, context.now >= shown.start {
            whenText = words.groupsUnderWay(
                time: CalendarText.time(shown.end, timeZone: context.timeZone, words: words))
        } else {
            let start = CalendarText.dayAndTime(shown.start, timeZone: context.timeZone, words: words)
            whenText = sit.weekly ? words.groupsEveryWeekAfter(when: start) : start
        }
        overText = sit.cancelled ? words.groupsSitCancelled : occurrence == nil ? words.groupsSitOver : nil
        isAhead = occurrence != nil
        let timeline = sit.profile.timeline
        totalSeconds = timeline.duration
        totalText = DurationFormatter.string(from: timeline.duration)
        events = TimelineEventViewModel.events(of: timeline, assets: context.assets, words: words)
        firstSection = (timeline.sections.first?.segment ?? .main).title(in: words)
        startsAtMilliseconds = Int((shown.start.timeIntervalSince1970 * 1000).rounded())
        joinsFromMilliseconds = startsAtMilliseconds - Int(GroupSit.joinWindow * 1000)
        startISO = CalendarText.iso(shown.start)
        groupID = group.id
        sitID = sit.id
        people = GroupSitPeopleViewModel(sit: sit, sitting: page.sitting, timeZone: context.timeZone, words: words)
        eventsURL = Self.eventsURL(group: group.id, sit: sit.id)
        cancelURL = page.isHost && !sit.cancelled ? Paths.cancelGroupSit.url(group.id, sit.id) : nil
        calendarURL = occurrence == nil ? nil : Paths.groupSitCalendar.url(group.id, sit.id)
        self.alert = alert
    }

    /// What `GET /groups/{id}/sits/{sit}` shows a member; not found for anyone else, or a sit
    /// that is not the group's.
    public static func load(group: Int, sit: Int, groups: any GroupRepository, context: PageContext) async
        -> LoadOutcome<GroupSitViewModel>
    {
        do {
            guard let page = try await groups.sitPage(sit, of: group, at: context.now) else { return .notFound }
            return .page(GroupSitViewModel(page, context: context))
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch {
            return .failed(
                .storage(
                    error, heading: context.words.groupsSitUnavailable, otherwise: context.words.groupsReadingSitFailed,
                    context: context),
                .storage)
        }
    }
}

/// What a group sit's script says, as the page's data attributes (`data-begins-in`…; `{time}`
/// where it puts the time, 05:00): the sitting page's words for a session, and a group sit's
/// own.
public struct GroupSitterWordsViewModel: Sendable, Equatable, Encodable {
    public let soundNotLoaded: String
    public let complete: String
    public let saved: String
    public let kept: String
    public let notSaved: String
    public let timeLeft: String
    public let beginsIn: String
    public let joinAgain: String
    public let leftAt: String
    public let noAudioTogether: String
    public let settingClock: String
    public let clockFailed: String
    public let over: String

    init(_ words: Words) {
        (soundNotLoaded, complete) = (words.sittingSoundNotLoaded, words.sittingComplete)
        (saved, kept, notSaved) = (words.sittingSaved, words.sittingKept, words.sittingScriptNotSaved)
        (timeLeft, beginsIn) = (words.groupsTimeLeft, words.groupsBeginsIn(time: "{time}"))
        (joinAgain, leftAt) = (words.groupsJoinAgain, words.groupsLeftAt(time: "{time}"))
        (noAudioTogether, settingClock) = (words.groupsNoAudio, words.groupsSettingClock)
        (clockFailed, over) = (words.groupsClockFailed, words.groupsSitOver)
    }
}

/// "In this sit": the members sitting in it now (those who show when they sit), live; and, once
/// a host cancelled it, that it is (who sits in it sits on, and their session is recorded).
public struct GroupSitPeopleViewModel: Sendable, Equatable, Encodable {
    public let heading: String
    public let hasPeople: Bool
    public let people: [GroupSitterViewModel]
    /// "No one has joined yet."; nil when someone has.
    public let emptyText: String?
    /// "A host cancelled this sit. …"; nil while it is not.
    public let cancelledText: String?

    public init(sit: GroupSit, sitting: [SittingNow], timeZone: TimeZone, words: Words) {
        heading = words.groupsInThisSit
        people = sitting.filter { $0.sit == sit.id }.map {
            GroupSitterViewModel($0, timeZone: timeZone, words: words)
        }
        hasPeople = !people.isEmpty
        emptyText = people.isEmpty ? words.groupsNoOneJoined : nil
        cancelledText = sit.cancelled ? words.groupsCancelledNote : nil
    }
}

extension GroupSitViewModel {
    /// Records a member's session of the sit (`POST /sessions` with `sit`): in their own history,
    /// under the sit's name, "with" the group, a cancelled sit's too. 303 back to the sit's page
    /// with "Session saved."; the page again with why (422) for a session that breaks a rule
    /// (those of `SittingSession.refusal`, or longer than the sit), nothing stored; 503 with why
    /// when the sit could not be read.
    public static func record(
        _ input: SittingSessionInput, groups: any GroupRepository, sessions: any SittingSessionRepository,
        context: PageContext
    ) async -> SubmitOutcome<GroupSitViewModel> {
        let context = context.withoutFlash
        let words = context.words
        guard let group = input.group.flatMap({ Int($0) }), let id = input.sit.flatMap({ Int($0) }) else {
            return .notFound
        }
        let shown: GroupSitPage
        do {
            guard let found = try await groups.sitPage(id, of: group, at: context.now) else { return .notFound }
            shown = found
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch {
            // Not a 404: the script keeps a session whose post failed this way, and sends it again.
            return .unavailable(
                ErrorPageViewModel(
                    heading: words.groupsSessionNotSaved,
                    message: StorageMessage.text(for: error, otherwise: words.groupsSessionsNotSaved, words: words),
                    context: context),
                .storage)
        }
        let sit = shown.sit
        func page(_ message: String) -> GroupSitViewModel {
            GroupSitViewModel(
                shown, context: context, alert: AlertViewModel(title: words.groupsNotSaved, message: message))
        }
        guard let (startedAt, seconds, completed) = input.timing else {
            return .invalid(page(words.sittingUnreadable))
        }
        let session = SittingSession(
            profileID: nil, profileName: sit.name, startedAt: startedAt, seconds: seconds, completed: completed,
            groupName: shown.group.name)
        if let refusal = session.refusal(now: context.now, words: words) { return .invalid(page(refusal)) }
        if seconds > Int(sit.duration) { return .invalid(page(words.groupsSessionTooLong)) }
        do {
            _ = try await sessions.record(session, clientID: input.clientId)
            return .redirect(
                Redirect(to: Paths.groupSit.url(group, id), flash: .success(words.sittingSaved)))
        } catch {
            return .failed(
                page(StorageMessage.text(for: error, otherwise: words.groupsSessionsNotSaved, words: words)),
                .storage)
        }
    }
}
