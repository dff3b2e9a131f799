import Foundation
import SanghaCore

/// A group's "Upcoming sits": each sit not over, the next time it begins (or that it is under
/// way), who is sitting in it, and "Join" from ten minutes before it begins until it ends. Its
/// own template (`Groups/group-sits`) is the section of the group's page, and the group's
/// event stream sends it again as it changes, as for "Sitting now": it is the same for every
/// member, so it holds no form.
public struct GroupSitsViewModel: Sendable, Equatable, Encodable {
    public let heading = "Upcoming sits"
    public let hasSits: Bool
    public let sits: [GroupSitRowViewModel]
    /// "No sits are scheduled."; nil when one is.
    public let emptyText: String?

    public init(sits: [GroupSit], sitting: [SittingNow], now: Date, timeZone: TimeZone) {
        self.sits = sits.compactMap { sit in sit.occurrence(at: now).map { (sit, $0) } }
            .sorted { $0.1.start < $1.1.start }
            .map { sit, occurrence in
                GroupSitRowViewModel(
                    sit, occurrence: occurrence, sitting: sitting.filter { $0.sit == sit.id }, now: now,
                    timeZone: timeZone)
            }
        hasSits = !self.sits.isEmpty
        emptyText = self.sits.isEmpty ? "No sits are scheduled." : nil
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
    public let joinLabel = "Join"
    /// "Join Evening sit".
    public let joinAccessibleLabel: String

    init(_ sit: GroupSit, occurrence: DateInterval, sitting: [SittingNow], now: Date, timeZone: TimeZone) {
        name = sit.name
        url = Paths.groupSit.url(sit.group, sit.id)
        whenText =
            now >= occurrence.start
            ? "Under way, until \(CalendarText.time(occurrence.end, timeZone: timeZone))"
            : CalendarText.dayAndTime(occurrence.start, timeZone: timeZone)
        startISO = CalendarText.iso(occurrence.start)
        detail = DurationFormatter.string(from: Int(sit.duration)) + (sit.weekly ? " · every week" : "")
        peopleText = sitting.isEmpty ? nil : "Sitting in it: " + sitting.map(\.name).joined(separator: ", ")
        joinURL = GroupSit.isOpen(occurrence, at: now) ? url : nil
        joinAccessibleLabel = "Join \(sit.name)"
    }
}

/// A host's "Schedule a sit": which of their profiles, the date and time it begins (in the
/// host's time zone, as every time on their pages), and whether it comes back every week.
public struct GroupScheduleViewModel: Sendable, Equatable, Encodable {
    public let heading = "Schedule a sit"
    public let intro =
        "Members see Join from 10 minutes before it begins. The sit keeps the profile as it is now."
    public let actionURL: String
    public let hasProfiles: Bool
    public let profileLabel = "Profile"
    public let profiles: [OptionViewModel]
    public let profileError: String?
    public let hasProfileError: Bool
    public let startsAt: FormFieldViewModel
    public let weeklyLabel = "Every week"
    public let weekly: Bool
    public let submitLabel = "Schedule a sit"
    /// Said to a host with no profile, instead of the form.
    public let noProfilesText: String?
    public let profilesURL: String = Paths.profiles.url

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

    init(group: Int, profiles: [Profile], form: Form) {
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
            names: FieldNames(name: "startsAt"), label: "Date and time", value: form.startsAt,
            error: form.startsAtError,
            inputType: .dateTimeLocal, autocomplete: nil, maxLength: 25)
        weekly = form.weekly
        noProfilesText = profiles.isEmpty ? "A sit plays one of your profiles: make one first." : nil
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
        do {
            guard let detail = try await groups.group(group, at: context.now), detail.isHost else { return .notFound }
            var profile: Profile?
            if let id = form.profile { profile = try await profiles.get(id: id) }
            if profile == nil { form.profileError = "Choose one of your profiles." }
            if form.startsAt.isEmpty {
                form.startsAtError = "Date and time is required."
            } else if let startsAt {
                form.startsAtError = GroupSit.refusal(startsAt: startsAt, now: context.now)
            } else {
                form.startsAtError = "Enter a date and time, such as 2026-11-24 19:00."
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
                Redirect(to: back, flash: .success("The sit is scheduled."), events: [.changed(group: group)]))
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch GroupRepositoryError.tooManySits {
            return .refused(
                Redirect(
                    to: back,
                    flash: .error(
                        title: "The sit was not scheduled.",
                        message:
                            "A group can have at most \(GroupSit.limitPerGroup) sits to come: cancel one you no longer need first."
                    )))
        } catch GroupRepositoryError.tooManySitsNotOver {
            return .refused(
                Redirect(
                    to: back,
                    flash: .error(title: "The sit was not scheduled.", message: tooManyNotOverMessage)))
        } catch {
            let message = StorageMessage.text(for: error, otherwise: "Saving failed. Please try again.")
            return .refused(Redirect(to: back, flash: .error(title: "The sit was not scheduled.", message: message)))
        }
    }

    /// Why a host cannot schedule a sit while the group has `GroupSit.limitNotOverPerGroup` sits
    /// not over, cancelled ones counted.
    public static let tooManyNotOverMessage =
        "A group can have at most \(GroupSit.limitNotOverPerGroup) sits that are not over, cancelled ones included: a cancelled sit stays in its members' calendars, marked cancelled, until its time has passed. Schedule this one once some are over."

    /// "Cancel sit" (hosts only): 303 to the group with "The sit is cancelled." (its pages show
    /// it gone; whoever sits in it goes on alone).
    public static func cancel(_ sit: Int, in group: Int, groups: any GroupRepository, now: Date) async
        -> SubmitOutcome<GroupViewModel>
    {
        let back = Paths.group.url(group)
        do {
            try await groups.cancelSit(sit, of: group, at: now)
            return .redirect(
                Redirect(to: back, flash: .success("The sit is cancelled."), events: [.changed(group: group)]))
        } catch GroupRepositoryError.notFound {
            return .notFound
        } catch {
            let message = StorageMessage.text(for: error, otherwise: "Saving failed. Please try again.")
            return .refused(
                Redirect(
                    to: Paths.groupSit.url(group, sit),
                    flash: .error(title: "The sit was not cancelled.", message: message)))
        }
    }
}
