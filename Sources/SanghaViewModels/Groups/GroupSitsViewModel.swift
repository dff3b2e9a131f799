import Foundation
import SanghaCore

/// A group's "Upcoming sits": each sit not over, the next time it begins (or that it is under
/// way), who is sitting in it, and "Join" from ten minutes before it begins until it ends. Its
/// own template (`Groups/group-sits`) is the section of the group's page, and the group's
/// event stream sends it again as it changes, as for "Sitting now": it is the same for every
/// member, so it holds no form.
public struct GroupSitsViewModel: Sendable, Equatable, Encodable {
    public let heading: String
    public let hasSits: Bool
    public let sits: [GroupSitRowViewModel]
    /// "No sits are scheduled."; nil when one is.
    public let emptyText: String?

    public init(sits: [GroupSit], sitting: [SittingNow], now: Date, timeZone: TimeZone, words: Words) {
        heading = words.groupsUpcomingSits
        self.sits = sits.compactMap { sit in sit.occurrence(at: now).map { (sit, $0) } }
            .sorted { $0.1.start < $1.1.start }
            .map { sit, occurrence in
                GroupSitRowViewModel(
                    sit, occurrence: occurrence, sitting: sitting.filter { $0.sit == sit.id }, now: now,
                    timeZone: timeZone, words: words)
            }
        hasSits = !self.sits.isEmpty
        emptyText = self.sits.isEmpty ? words.groupsNoSits : nil
    }
}

/// "Evening sit · Tue 24 Nov 2026, 19:00 · 30:00 · every week", "Join".
public struct GroupSitRowViewModel: Sendable, Equatable, Encodable {
    public let name: String
    public let url: String
    /// "Tue 24 Nov 2026, 19:00", or "Under way, until 19:30".
    public let whenText: String
    public let startISO: String
    /// "30:00 · every week".
    public let detail: String
    /// "Sitting in it: Ada Lovelace, Bob Ray"; nil when no one is.
    public let peopleText: String?
    /// The sit's page, from ten minutes before it begins until it ends; nil otherwise.
    public let joinURL: String?
    public let joinLabel: String
    /// "Join Evening sit".
    public let joinAccessibleLabel: String

    init(
        _ sit: GroupSit, occurrence: DateInterval, sitting: [SittingNow], now: Date, timeZone: TimeZone,
        words: Words
    ) {
        name = words.isolated(sit.name)
        url = Paths.groupSit.url(sit.group, sit.id)
        whenText =
            now >= occurrence.start
            ? words.groupsUnderWay(time: CalendarText.time(occurrence.end, timeZone: timeZone, words: words))
            : CalendarText.dayAndTime(occurrence.start, timeZone: timeZone, words: words)
        startISO = CalendarText.iso(occurrence.start)
        let duration = DurationFormatter.string(from: Int(sit.duration))
        detail = sit.weekly ? words.groupsEveryWeekAfter(when: duration) : duration
        peopleText =
            sitting.isEmpty
            ? nil : words.groupsSittingInIt(names: sitting.map { words.isolated($0.name) }.joined(separator: ", "))
        joinURL = GroupSit.isOpen(occurrence, at: now) ? url : nil
        joinLabel = words.groupsJoin
        joinAccessibleLabel = words.groupsJoinNamed(name: sit.name)
    }
}

/// A host's "Schedule a sit": which of their profiles, the date and time it begins (in the
/// host's time zone, as every time on their pages), and whether it comes back every week.
public struct GroupScheduleViewModel: Sendable, Equatable, Encodable {
    public let heading: String
    public let intro: String
    public let actionURL: String
    public let hasProfiles: Bool
    public let profileLabel: String
    public let profiles: [OptionViewModel]
    public let profileError: String?
    public let hasProfileError: Bool
    public let startsAt: FormFieldViewModel
    public let weeklyLabel: String
    public let weekly: Bool
    public let submitLabel: String
    /// Said to a host with no profile, instead of the form.
    public let noProfilesText: String?
    public let profilesURL: String = Paths.profiles.url
    public let profilesLabel: String

    /// The form as typed, and each field's message.
    public struct Form: Sendable, Equatable {
        public var profile: Int?
        public var startsAt: String
        public var weekly: Bool
        public var profileError: String?
        public var startsAtError: String?

        public init(
            profile: Int? = nil, startsAt: String = "", weekly: Bool = false, profileError: String? = nil,
            startsAtError: String? = nil
        ) {
            (self.profile, self.startsAt, self.weekly) = (profile, startsAt, weekly)
            (self.profileError, self.startsAtError) = (profileError, startsAtError)
        }

        public static let empty = Form()
    }

    init(group: Int, profiles: [Profile], form: Form, words: Words) {
        (heading, intro, submitLabel) = (words.groupsSchedule, words.groupsScheduleIntro, words.groupsSchedule)
        (profileLabel, weeklyLabel, profilesLabel) = (words.groupsProfile, words.groupsEveryWeek, words.groupsProfiles)
        actionURL = Paths.groupSits.url(group)
        hasProfiles = !profiles.isEmpty
        self.profiles = profiles.map { profile in
            OptionViewModel(
                value: String(profile.id), label: profile.displayName,
                isSelected: profile.id == form.profile)
        }
        profileError = form.profileError
        hasProfileError = form.profileError != nil
        startsAt = FormFieldViewModel(
            names: FieldNames(name: "startsAt"), label: words.groupsDateAndTime, value: form.startsAt,
            error: form.startsAtError,
            inputType: .dateTimeLocal, autocomplete: nil, maxLength: 25)
        weekly = form.weekly
        noProfilesText = profiles.isEmpty ? words.groupsNoProfiles : nil
    }

    /// How many of the host's profiles the form offers (by name).
    static let profileLimit = 100
}

/// "Schedule a sit" as posted: the profile's id, the start as the browser's date-and-time field
/// sends it (`2026-11-24T19:00`, seconds allowed) and `weekly=on` when it comes back each week.
public struct GroupScheduleInput: Sendable, Equatable, Decodable {
    public var profile: String?
    public var startsAt: String?
    public var weekly: String?

    public init(profile: String? = nil, startsAt: String? = nil, weekly: String? = nil) {
        (self.profile, self.startsAt, self.weekly) = (profile, startsAt, weekly)
    }
}

/// What a host does to a group's sits with a button: schedule one, cancel one.
public enum GroupSitAction {
    /// "Schedule a sit": 303 to the group with "The sit is scheduled." (its pages show the sit at
    /// once); the page again with
    /// each field's message (422) when a value breaks a rule. Not found for anyone not a host.
    public static func schedule(
        _ input: GroupScheduleInput, in group: Int, groups: any GroupRepository, profiles: any ProfileRepository,
        context: PageContext
    ) async -> SubmitOutcome<GroupViewModel> {
        var form = GroupScheduleViewModel.Form(
            profile: input.profile.flatMap { Int($0) }, startsAt: input.startsAt ?? "", weekly: input.weekly == "on")
        let startsAt = LocalDateTime.date(from: form.startsAt, timeZone: context.timeZone)
        let back = Paths.group.url(group)
        let words = context.words
        do {
            guard let detail = try await groups.group(group, at: context.now), detail.isHost else { return .notFound }
            var profile: Profile?
            if let id = form.profile { profile = try await profiles.get(id: id) }
            if profile == nil { form.profileError = words.groupsChooseProfile }
            if form.startsAt.isEmpty {
                form.startsAtError = words.groupsDateAndTimeRequired
            } else if let startsAt {
                form.startsAtError = GroupSit.refusal(startsAt: startsAt, now: context.now).map {
                    startsAtProblem($0, words: words)
                }
            } else {
                form.startsAtError = words.groupsDateAndTimeExample
            }
            guard let profile, let startsAt, form.startsAtError == nil else {
                let week = GroupViewModel.week(of: context.now, timeZone: context.timeZone)
                guard let read = try await groups.page(group, week: week, at: context.now) else { return .notFound }
                return .invalid(
                    try await GroupViewModel.page(
                        read, profiles: profiles, context: context.withoutFlash, schedule: form))
            }
            _ = try await groups.scheduleSit(
                GroupSit(
                    group: group, profile: profile, startsAt: startsAt, weekly: form.weekly,
                    timeZone: context.timeZone), at: context.now)
            return .redirect(
                Redirect(to: back, flash: .success(words.groupsScheduled), events: [.changed(group: group)]))
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch GroupRepositoryError.tooManySits {
            return .refused(
                Redirect(
                    to: back,
                    flash: .error(
                        title: words.groupsNotScheduled, message: words.groupsTooManySits(GroupSit.limitPerGroup))))
        } catch GroupRepositoryError.tooManySitsNotOver {
            return .refused(
                Redirect(
                    to: back,
                    flash: .error(
                        title: words.groupsNotScheduled,
                        message: words.groupsTooManyNotOver(GroupSit.limitNotOverPerGroup))))
        } catch {
            let message = StorageMessage.text(for: error, otherwise: words.groupsSavingFailed, words: words)
            return .refused(Redirect(to: back, flash: .error(title: words.groupsNotScheduled, message: message)))
        }
    }

    /// `GroupSit.refusal`'s reason (English) in `words`' language.
    static func startsAtProblem(_ problem: String, words: Words) -> String {
        let now = Date(timeIntervalSince1970: 0)
        let reasons: [(example: Date, text: String)] = [
            (now.addingTimeInterval(-86_400), words.groupsSitInPast),
            (now.addingTimeInterval(2 * 366 * 86_400), words.groupsSitTooFar),
        ]
        return reasons.first { GroupSit.refusal(startsAt: $0.example, now: now) == problem }?.text ?? problem
    }

    /// Why a host cannot schedule a sit while the group has `GroupSit.limitNotOverPerGroup` sits
    /// not over, cancelled ones counted.
    public static let tooManyNotOverMessage = Words.english.groupsTooManyNotOver(GroupSit.limitNotOverPerGroup)

    /// "Cancel sit" (hosts only): 303 to the group with "The sit is cancelled." (its pages show
    /// it gone; whoever sits in it goes on alone).
    public static func cancel(
        _ sit: Int, in group: Int, groups: any GroupRepository, now: Date, words: Words
    ) async -> SubmitOutcome<GroupViewModel> {
        let back = Paths.group.url(group)
        do {
            try await groups.cancelSit(sit, of: group, at: now)
            return .redirect(
                Redirect(to: back, flash: .success(words.groupsSitCancelledFlash), events: [.changed(group: group)]))
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch {
            let message = StorageMessage.text(for: error, otherwise: words.groupsSavingFailed, words: words)
            return .refused(
                Redirect(
                    to: Paths.groupSit.url(group, sit),
                    flash: .error(title: words.groupsNotCancelled, message: message)))
        }
    }
}
