import Foundation
import SanghaCore

/// The settings page: name, About text, FriendService token, a new password; and deleting the
/// account.
public struct SettingsViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let actionURL: String = Paths.settings.url
    public let submitLabel: String
    public let name: FormFieldViewModel
    public let about: FormFieldViewModel
    /// Only with a remote FriendService: with the embedded one Sangha gives each person theirs.
    public let friendServiceToken: FormFieldViewModel?
    public let showWhenSittingLabel: String
    public let showWhenSittingHint: String
    public let showsWhenSitting: Bool
    public let showStreaksLabel: String
    public let showStreaksHint: String
    public let showsStreaks: Bool
    public let timeZoneLabel: String
    public let timeZoneHint: String
    /// The words of the button the page's script adds when the device's zone is another:
    /// "Use this device’s time zone, America/Santiago".
    public let useDeviceTimeZoneLabel: String
    /// Every zone offered (`DayClock.timeZoneNames`), the person's selected.
    public let timeZones: TimeZoneMenuViewModel
    public let timeZoneError: String?
    public let dayStartLabel: String
    public let dayStartHint: String
    public let dayStarts: [OptionViewModel]
    public let dayStartError: String?
    /// "Language": "As my browser says" (nil, every new account's), then each language Sangha
    /// speaks, named in itself.
    public let languageLabel: String
    public let languageHint: String
    public let languages: [LanguageOptionViewModel]
    public let reminder: FormFieldViewModel
    public let calendar: CalendarSectionViewModel
    /// "Notifications": nil where Sangha sends none (no `--push-contact`), or where the
    /// person's devices could not be read.
    public let notifications: NotificationsSectionViewModel?
    /// The group's identity provider: "Connect NAME" or "Disconnect NAME"; nil without one.
    public let provider: ProviderSectionViewModel?
    /// Nil for an account without a password (the identity provider alone signs it in): it
    /// sets its first one with no current password to show, once it has confirmed it is itself.
    public let currentPassword: FormFieldViewModel?
    /// "Password", or "Set a password" for an account without one.
    public let passwordLegend: String
    /// Nil for an account without a password that has not confirmed (`confirm` instead).
    public let newPassword: FormFieldViewModel?
    /// For an account without a password: "Confirm with NAME" (signing in again at the
    /// provider), which setting a password and deleting the account ask for first.
    public let confirm: ProviderConfirmViewModel?
    /// Beside the password: what signs in or reads the account besides it (the provider's
    /// identity, the calendar link), which a new password does not end, each with a box to end
    /// it on saving. Nil when there is none, or for an account without a password.
    public let otherWaysIn: OtherWaysInViewModel?
    public let alert: AlertViewModel?
    public let deleteHeading: String
    public let deleteURL: String = Paths.deleteAccount.url
    public let deleteLabel: String
    /// The password typed again to delete the account; nil for an account the identity provider
    /// alone signs in (it has none: being signed in is all it can show).
    public let deletePassword: FormFieldViewModel?
    /// What deleting does, said without the password field that otherwise carries it.
    public let deleteWarning: String?

    public init(
        person: Person, acceptsToken: Bool, context: PageContext, input: AccountInput? = nil,
        errors: [AccountField: String] = [:], alert: AlertViewModel? = nil,
        timeZoneNames: [String]? = nil, calendarLink: OneTimeLinkViewModel? = nil, providerContinueURL: String? = nil,
        notifications: NotificationsSectionViewModel? = nil
    ) {
        let words = context.words
        self.notifications = notifications
        self.layout = LayoutViewModel(title: words.settingsTitle, section: .settings, context: context)
        (heading, submitLabel) = (words.settingsTitle, words.settingsSave)
        (showWhenSittingLabel, showWhenSittingHint) = (words.settingsShowWhenSitting, words.settingsShowWhenSittingHint)
        (showStreaksLabel, showStreaksHint) = (words.settingsShowStreaks, words.settingsShowStreaksHint)
        (timeZoneLabel, timeZoneHint) = (words.settingsTimeZone, words.settingsTimeZoneHint)
        useDeviceTimeZoneLabel = words.settingsUseDeviceTimeZone
        (dayStartLabel, dayStartHint) = (words.settingsDayStart, words.settingsDayStartHint)
        (deleteHeading, deleteLabel) = (words.settingsDeleteHeading, words.settingsDeleteSubmit)
        self.name = FormFieldViewModel(
            names: FieldNames(name: AccountField.name.formName), label: words.accountName,
            value: input?.name ?? person.name,
            error: errors[.name],
            autocomplete: "name", maxLength: Person.nameLengthLimit)
        self.about = FormFieldViewModel(
            names: FieldNames(name: AccountField.about.formName), label: words.accountAbout,
            value: input?.about ?? person.about, error: errors[.about],
            hint: words.settingsAboutHint, maxLength: Person.aboutLengthLimit, isRequired: false, lines: 6)
        self.friendServiceToken =
            acceptsToken
            ? FormFieldViewModel(
                names: FieldNames(name: AccountField.friendServiceToken.formName), label: words.settingsToken,
                value: "",
                error: errors[.friendServiceToken],
                hint: person.friendServiceTokenEnding.map { words.settingsTokenHintKept(ending: $0) }
                    ?? words.settingsTokenHintNone,
                // A secret kept like a password, but never the account's: "new-password" keeps the
                // browser from filling the account's password in (and "off" is not a valid hint for
                // a password field to accessibility checkers).
                inputType: .password, autocomplete: "new-password", maxLength: Person.tokenLengthLimit,
                isRequired: false)
            : nil
        self.showsWhenSitting = input.map(\.showsWhenSitting) ?? person.showsWhenSitting
        self.showsStreaks = input.map(\.showsStreaks) ?? person.showsStreaks
        // The person's own zone is always offered (one not on the list, say a browser's), and
        // chosen when what was posted is not an option: no save ever changes it by accident.
        let own = DayClock.name(of: person.timeZone)
        self.timeZones = TimeZoneMenuViewModel.menu(own: own, posted: input?.timeZone, offered: timeZoneNames)
        self.timeZoneError = errors[.timeZone]
        let hour = input?.dayStartHour.flatMap(DayClock.startHour(named:)) ?? person.dayStartHour
        self.dayStarts = DayClock.startHours.map {
            OptionViewModel(value: "\($0)", label: "0\($0):00", isSelected: $0 == hour)
        }
        self.dayStartError = errors[.dayStartHour]
        (languageLabel, languageHint) = (words.settingsLanguage, words.settingsLanguageHint)
        // As with the zone, a value not offered keeps the person's.
        let language = input?.language.map { $0.isEmpty ? nil : Language.shipped(tag: $0) ?? person.language }
        let chosen = language ?? person.language
        self.languages =
            [
                LanguageOptionViewModel(
                    value: "", lang: nil, name: words.settingsLanguageBrowser, isSelected: chosen == nil)
            ] + LanguageOptionViewModel.languages(selected: chosen)
        self.reminder = FormFieldViewModel(
            names: FieldNames(name: AccountField.reminder.formName), label: words.settingsReminder,
            value: input?.reminder ?? person.reminderMinutes.map(Self.timeOfDay) ?? "", error: errors[.reminder],
            hint: words.settingsReminderHint,
            inputType: .time, autocomplete: nil, maxLength: 5, isRequired: false)
        self.calendar = CalendarSectionViewModel(hasLink: person.calendarKey != nil, link: calendarLink, words: words)
        self.provider = context.signInProvider.flatMap { name in
            context.providerAccount.map {
                ProviderSectionViewModel(
                    provider: name, account: $0, passwordError: errors[.connectPassword],
                    continueURL: providerContinueURL, words: words)
            }
        }
        let hasPassword = context.providerAccount?.hasPassword != false
        self.otherWaysIn = Self.otherWaysIn(of: person, context: context, input: input)
        self.passwordLegend = hasPassword ? words.accountPassword : words.settingsSetPassword
        self.currentPassword =
            hasPassword
            ? FormFieldViewModel(
                names: FieldNames(name: AccountField.currentPassword.formName), label: words.settingsCurrentPassword,
                value: "", error: errors[.currentPassword],
                hint: words.settingsCurrentPasswordHint, inputType: .password, autocomplete: "current-password",
                maxLength: Person.maximumPasswordLength, isRequired: false)
            : nil
        let rule = words.signUpPasswordHint(minimum: words.number(Person.minimumPasswordLength))
        let provider = context.providerName
        let confirmed = hasPassword || context.providerAccount?.isConfirmed == true
        self.newPassword =
            confirmed
            ? FormFieldViewModel(
                names: FieldNames(name: AccountField.newPassword.formName), label: words.accountNewPassword,
                value: "", error: errors[.newPassword],
                hint: hasPassword
                    ? "\(rule) \(words.settingsNewPasswordKeep)"
                    : "\(words.settingsNewPasswordFirst(provider: provider)) \(rule) \(words.settingsNewPasswordNone)",
                inputType: .password, autocomplete: "new-password", maxLength: Person.maximumPasswordLength,
                isRequired: false)
            : nil
        self.confirm = confirmed ? nil : ProviderConfirmViewModel(provider: provider, words: words)
        self.deletePassword =
            !hasPassword
            ? nil
            : FormFieldViewModel(
                names: FieldNames(name: AccountField.password.formName), label: words.accountPassword,
                value: "", error: errors[.password],
                hint: words.settingsDeleteHint, inputType: .password,
                autocomplete: "current-password", maxLength: Person.maximumPasswordLength)
        self.deleteWarning = deletePassword == nil ? words.settingsDeleteHint : nil
        self.alert = alert
    }

    /// What signs in or reads the account besides its password, offered to end beside it: the
    /// provider's identity (while a password signs in too) and the calendar link.
    static func otherWaysIn(of person: Person, context: PageContext, input: AccountInput?) -> OtherWaysInViewModel? {
        guard context.providerAccount?.hasPassword != false else { return nil }
        return OtherWaysInViewModel(
            provider: context.providerAccount?.isConnected == true ? context.signInProvider : nil,
            hasCalendarLink: person.calendarKey != nil, input: input, words: context.words)
    }

    /// `07:05` for 425 minutes.
    static func timeOfDay(_ minutes: Int) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// The minutes after midnight of `HH:MM` (or `HH:MM:SS`, as some browsers send it), or nil.
    static func minutes(ofTimeOfDay text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    public static let saved = "Settings saved."
    public static let signedOutElsewhere = "Settings saved. Signed out everywhere else."
    public static let calendarLinkEnded = "Calendar link ended."

    /// Saves name, About and token, and the new password when one is typed with the current one
    /// (or is the first of an account without one): then every other sign-in session of the
    /// person ends (`session` is this browser's, kept).
    public static func submit(
        _ input: AccountInput, person: Person, acceptsToken: Bool, people: any PeopleRepository,
        passwords: any PasswordHashing, groups: (any GroupRepository)? = nil, session: String? = nil,
        requester: Requester = Requester(), context: PageContext
    ) async -> SubmitOutcome<SettingsViewModel> {
        func form(errors: [AccountField: String] = [:], alert: AlertViewModel? = nil) -> SettingsViewModel {
            SettingsViewModel(
                person: person, acceptsToken: acceptsToken, context: context, input: input, errors: errors,
                alert: alert)
        }
        let words = context.words
        let confirmFirst = ProviderConfirmViewModel.first(context.providerName, words: words)
        let couldNotSave = words.settingsCouldNotSave
        var errors: [AccountField: String] = [:]
        if let refusal = Person.nameRefusal(input.name ?? "", words: words) { errors[.name] = refusal }
        let about = (input.about ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if let refusal = Person.aboutRefusal(about, words: words) { errors[.about] = refusal }
        let token = (input.friendServiceToken ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if acceptsToken, !token.isEmpty,
            token.count > Person.tokenLengthLimit
                || !token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
        {
            errors[.friendServiceToken] = words.settingsTokenInvalid(limit: words.number(Person.tokenLengthLimit))
        }
        // A form without the fields (not a browser's) keeps what the person has.
        let timeZone =
            input.timeZone.map {
                $0 == DayClock.name(of: person.timeZone) ? person.timeZone : DayClock.timeZone(named: $0)
            }
            ?? person.timeZone
        if timeZone == nil { errors[.timeZone] = words.settingsChooseTimeZone }
        let dayStartHour =
            input.dayStartHour.map(DayClock.startHour(named:)) ?? person.dayStartHour
        if dayStartHour == nil {
            errors[.dayStartHour] = words.settingsDayStartInvalid(latest: "0\(DayClock.startHours.upperBound):00")
        }
        // A form without the field keeps the reminder; an empty one ends it.
        let reminder = (input.reminder ?? person.reminderMinutes.map(timeOfDay) ?? "")
            .trimmingCharacters(in: .whitespaces)
        let reminderMinutes = reminder.isEmpty ? nil : minutes(ofTimeOfDay: reminder)
        if !reminder.isEmpty, reminderMinutes == nil {
            errors[.reminder] = words.settingsReminderInvalid
        }
        let newPassword = input.newPassword ?? ""
        let currentPassword = input.currentPassword ?? ""
        if !newPassword.isEmpty {
            if let refusal = Person.passwordRefusal(newPassword, username: person.username, words: words) {
                errors[.newPassword] = refusal
            }
            if currentPassword.isEmpty, context.providerAccount?.hasPassword != false {
                errors[.currentPassword] = words.settingsEnterCurrentPassword
            }
        }
        // (No field asks for it then: only a post not made by the page sends one.)
        if !newPassword.isEmpty, let account = context.providerAccount, !account.hasPassword, !account.isConfirmed {
            return .invalid(form(alert: AlertViewModel(title: couldNotSave, message: confirmFirst)))
        }
        guard errors.isEmpty else { return .invalid(form(errors: errors)) }
        var updated = person
        updated.name = input.trimmedName
        updated.about = about
        if acceptsToken, !token.isEmpty { updated.friendServiceToken = token }
        updated.showsWhenSitting = input.showsWhenSitting
        updated.showsStreaks = input.showsStreaks
        updated.reminderMinutes = reminderMinutes
        // Not posted (a post not made by the page), or a language not offered: the person's stays.
        if let language = input.language {
            updated.language = language.isEmpty ? nil : Language.shipped(tag: language) ?? person.language
        }
        if let timeZone, let dayStartHour {
            updated.timeZone = timeZone
            updated.dayStartHour = dayStartHour
        }
        // The boxes beside the password: only what the page offered (`otherWaysIn`) is ended.
        let offered = otherWaysIn(of: person, context: context, input: input)
        let endsProvider = input.endsProvider && offered?.endsProvider == true
        let endsCalendarLink = input.endsCalendarLink && offered?.endsCalendarLink == true
        do {
            if !newPassword.isEmpty {
                // Counted as a sign-in would be: a stolen session cannot guess the password.
                if let minutes = try await requester.countCheck(of: person.username, people: people, at: context.now) {
                    let alert = AlertViewModel(
                        title: couldNotSave, message: Requester.tooManyAttempts(minutes: minutes, words: words))
                    return .failed(form(alert: alert), .tooManyAttempts)
                }
                switch try await proof(
                    currentPassword, of: person, people: people, passwords: passwords, context: context)
                {
                case .shown: break
                case .wrongPassword:
                    return .invalid(form(errors: [.currentPassword: words.settingsWrongCurrentPassword]))
                case .unconfirmed:
                    return .invalid(
                        form(alert: AlertViewModel(title: couldNotSave, message: confirmFirst)))
                }
                try await requester.checkSucceeded(of: person.username, people: people, at: context.now)
            }
            // Before the password: ending again is harmless, so a failure after this is tried
            // again with the same current password.
            if endsProvider {
                for issuer in context.providerAccount?.issuers ?? [] {
                    try await people.disconnect(issuer: issuer, from: person.id)
                }
            }
            if endsCalendarLink { try await people.setCalendarKey(nil, of: person.id) }
            if !newPassword.isEmpty {
                try await people.setPasswordHash(
                    try await passwords.hash(newPassword, lane: .known), of: person.id, keepingSession: session)
            }
            try await people.update(updated)
            let said =
                [newPassword.isEmpty ? words.settingsSaved : words.settingsSignedOutElsewhere]
                + (endsProvider ? [ProviderSectionViewModel.disconnected(context.providerName, words: words)] : [])
                + (endsCalendarLink ? [words.settingsCalendarLinkEnded] : [])
            var events: [GroupEvent] = []
            // Shown or hidden now: their groups' "Sitting now" may change.
            if updated.showsWhenSitting != person.showsWhenSitting, let mine = try? await groups?.list() {
                events += mine.map { .changed(group: $0.group.id) }
            }
            // A new password signed them out everywhere else: those browsers' group pages stop.
            if !newPassword.isEmpty { events.append(.signedOutEverywhere(person: person.id, except: session)) }
            return .redirect(
                Redirect(to: Paths.settings.url, flash: .success(said.joined(separator: " ")), events: events))
        } catch PasswordHashingError.busy {
            await requester.checkNotMade(of: person.username, people: people, at: context.now)
            return .failed(
                form(
                    alert: AlertViewModel(title: couldNotSave, message: PasswordHashingError.message(words))),
                .busy)
        } catch {
            return .failed(
                form(
                    alert: AlertViewModel(
                        title: couldNotSave,
                        message: StorageMessage.text(for: error, otherwise: words.commonSavingFailed, words: words))),
                .storage)
        }
    }

    /// What a person shows for a change that needs more than a session: `password` against the
    /// stored hash, or, for an account without one (the provider's alone), "Confirm with NAME"
    /// within ten minutes. Decided by what is stored, never by what the page was told: without a
    /// provider (or when its reads failed) such an account cannot confirm, and is refused.
    enum Proof { case shown, wrongPassword, unconfirmed }

    static func proof(
        _ password: String, of person: Person, people: any PeopleRepository, passwords: any PasswordHashing,
        context: PageContext
    ) async throws -> Proof {
        guard let stored = try await people.credentials(id: person.id) else { return .wrongPassword }
        if stored.passwordHash.isEmpty { return context.providerAccount?.isConfirmed == true ? .shown : .unconfirmed }
        return try await passwords.verify(password, against: stored.passwordHash, lane: .known)
            ? .shown : .wrongPassword
    }

    /// "Connect NAME": the person's password first, checked and counted as the other checks of
    /// it in Settings are, so neither another site (the post needs the form token) nor a
    /// stolen session can tie someone else's identity to the account. Nil when it is right (the
    /// web layer goes on to the provider); else Settings again saying why, by the field.
    public static func connectRefusal(
        password: String, person: Person, acceptsToken: Bool, people: any PeopleRepository,
        passwords: any PasswordHashing, requester: Requester = Requester(), context: PageContext
    ) async -> SubmitOutcome<SettingsViewModel>? {
        let provider = context.providerName
        func form(errors: [AccountField: String] = [:], alert: AlertViewModel? = nil) -> SettingsViewModel {
            SettingsViewModel(
                person: person, acceptsToken: acceptsToken, context: context, errors: errors, alert: alert)
        }
        let words = context.words
        let title = words.providerCouldNotConnect
        guard !password.isEmpty || context.providerAccount?.hasPassword == false else {
            return .invalid(
                form(errors: [.connectPassword: ProviderSectionViewModel.passwordNeeded(provider, words: words)]))
        }
        do {
            if let minutes = try await requester.countCheck(of: person.username, people: people, at: context.now) {
                let alert = AlertViewModel(
                    title: title, message: Requester.tooManyAttempts(minutes: minutes, words: words))
                return .failed(form(alert: alert), .tooManyAttempts)
            }
            switch try await proof(password, of: person, people: people, passwords: passwords, context: context) {
            case .shown: break
            case .wrongPassword:
                return .invalid(form(errors: [.connectPassword: words.providerWrongPassword]))
            case .unconfirmed:
                return .invalid(
                    form(
                        alert: AlertViewModel(
                            title: title, message: ProviderSectionViewModel.noPassword(provider, words: words))))
            }
            try await requester.checkSucceeded(of: person.username, people: people, at: context.now)
            return nil
        } catch PasswordHashingError.busy {
            await requester.checkNotMade(of: person.username, people: people, at: context.now)
            return .failed(
                form(alert: AlertViewModel(title: title, message: PasswordHashingError.message(words))), .busy)
        } catch {
            return .failed(
                form(
                    alert: AlertViewModel(
                        title: title,
                        message: StorageMessage.text(for: error, otherwise: words.providerConnectFailed, words: words))),
                .storage)
        }
    }

    /// Deletes the person and all their data once the password is typed again (an account
    /// without one, which the identity provider alone signs in, needs none). `clearFriends`
    /// removes their friends from the embedded FriendService first.
    public static func delete(
        password: String?, person: Person, acceptsToken: Bool, people: any PeopleRepository,
        passwords: any PasswordHashing, groups: (any GroupRepository)? = nil,
        clearFriends: (@Sendable () async -> Void)?, requester: Requester = Requester(), context: PageContext
    ) async -> SubmitOutcome<SettingsViewModel> {
        func form(errors: [AccountField: String] = [:], alert: AlertViewModel? = nil) -> SettingsViewModel {
            SettingsViewModel(
                person: person, acceptsToken: acceptsToken, context: context, errors: errors, alert: alert)
        }
        let words = context.words
        let couldNotDelete = words.settingsCouldNotDelete
        do {
            if let minutes = try await requester.countCheck(of: person.username, people: people, at: context.now) {
                let alert = AlertViewModel(
                    title: couldNotDelete, message: Requester.tooManyAttempts(minutes: minutes, words: words))
                return .failed(form(alert: alert), .tooManyAttempts)
            }
            switch try await proof(password ?? "", of: person, people: people, passwords: passwords, context: context) {
            case .shown: break
            case .wrongPassword:
                // Nothing typed asks for the password; a wrong one says it is wrong.
                let message =
                    (password ?? "").isEmpty ? words.settingsDeleteTypePassword : words.settingsWrongCurrentPassword
                return .invalid(form(errors: [.password: message]))
            case .unconfirmed:
                let message = ProviderConfirmViewModel.first(context.providerName, words: words)
                return .invalid(form(alert: AlertViewModel(title: couldNotDelete, message: message)))
            }
            try await requester.checkSucceeded(of: person.username, people: people, at: context.now)
            // Read before they go: their groups' pages no longer show them.
            let left = ((try? await groups?.list()) ?? []).flatMap {
                [GroupEvent.membershipEnded(group: $0.group.id, person: person.id), .changed(group: $0.group.id)]
            }
            try await people.delete(id: person.id)
            // The account is gone; its friends list goes after it (a failure leaves a list no
            // one can reach, never an account without its friends).
            await clearFriends?()
            return .redirect(
                Redirect(
                    to: Paths.signUp.url, flash: .success(words.settingsDeleted),
                    events: left))
        } catch PasswordHashingError.busy {
            await requester.checkNotMade(of: person.username, people: people, at: context.now)
            return .failed(
                form(
                    alert: AlertViewModel(title: couldNotDelete, message: PasswordHashingError.message(words))),
                .busy)
        } catch PeopleRepositoryError.lastAdministrator {
            return .invalid(
                form(
                    alert: AlertViewModel(title: couldNotDelete, message: words.settingsOnlyAdministrator)))
        } catch {
            return .failed(
                form(
                    alert: AlertViewModel(
                        title: couldNotDelete,
                        message: StorageMessage.text(for: error, otherwise: words.settingsDeleteFailed, words: words))),
                .storage)
        }
    }
}

/// Settings' "Calendar": a private address a calendar app subscribes to (the person's groups'
/// sits, and the daily reminder), made or reset here and shown once.
public struct CalendarSectionViewModel: Sendable, Equatable, Encodable {
    public let heading: String
    public let hint: String
    /// Whether the person has a link: it cannot be shown again, only reset.
    public let status: String
    public let actionURL: String = Paths.calendarLink.url
    public let submitLabel: String
    /// The link just made, shown this once.
    public let link: OneTimeLinkViewModel?

    public init(hasLink: Bool, link: OneTimeLinkViewModel? = nil, words: Words) {
        (heading, hint) = (words.settingsCalendar, words.settingsCalendarHint)
        status = hasLink ? words.settingsCalendarHasLink : words.settingsCalendarNoLink
        submitLabel = hasLink ? words.settingsCalendarReset : words.settingsCalendarCreate
        self.link = link
    }
}

/// "Confirm with NAME": an account the identity provider alone signs in shows it is itself by
/// signing in there again, which lasts ten minutes.
public struct ProviderConfirmViewModel: Sendable, Equatable, Encodable {
    public let hint: String
    public let link: LinkViewModel

    public init(provider: String, words: Words) {
        hint = words.providerConfirmHint(provider: provider)
        link = LinkViewModel(url: Paths.confirmProvider.url, label: words.providerConfirm(provider: provider))
    }

    /// Setting a password or deleting refused for want of it.
    public static func first(_ provider: String, words: Words) -> String {
        words.providerConfirmFirst(provider: provider)
    }
    public static func confirmed(_ provider: String, words: Words) -> String {
        words.providerConfirmed(provider: provider)
    }
}

/// Settings' section of the group's identity provider.
public struct ProviderSectionViewModel: Sendable, Equatable, Encodable {
    /// The section's id: the connect form's answer opens at it.
    public let id = "provider"
    public let heading: String
    public let status: String
    /// "Connect NAME": a form, with the person's password, posted with the form token (never a
    /// link, which another site could make a signed-in browser follow).
    public let connect: ProviderConnectViewModel?
    /// The password was right: "Continue to NAME", off to the provider and back connected.
    public let proceed: LinkViewModel?
    /// "Disconnect NAME": only while a password signs the person in too.
    public let disconnect: LinkViewModel?

    public init(
        provider: String, account: ProviderAccount, passwordError: String? = nil, continueURL: String? = nil,
        words: Words
    ) {
        heading = provider
        switch (account.isConnected, account.hasPassword) {
        case (false, true):
            if let continueURL {
                status = Self.passwordConfirmed(provider, words: words)
                connect = nil
                proceed = LinkViewModel(url: continueURL, label: words.providerContinue(provider: provider))
            } else {
                status = words.providerConnectStatus(provider: provider)
                connect = ProviderConnectViewModel(provider: provider, error: passwordError, words: words)
                proceed = nil
            }
            disconnect = nil
        case (false, false):
            // Its issuer is no longer the one configured, and it has no password to show.
            status = Self.noPassword(provider, words: words)
            (connect, proceed, disconnect) = (nil, nil, nil)
        case (true, true):
            status = words.providerBothStatus(provider: provider)
            (connect, proceed) = (nil, nil)
            disconnect = LinkViewModel(
                url: Paths.disconnectProvider.url, label: words.providerDisconnect(provider: provider))
        case (true, false):
            status = words.providerOnlyStatus(provider: provider)
            (connect, proceed, disconnect) = (nil, nil, nil)
        }
    }

    public static func connected(_ provider: String, words: Words) -> String {
        words.providerConnected(provider: provider)
    }
    /// "Disconnect NAME" refused: the account has no password to sign in with instead.
    public static func onlyWayIn(_ provider: String, words: Words) -> String {
        words.providerOnlyWayIn(provider: provider)
    }
    public static func disconnected(_ provider: String, words: Words) -> String {
        words.providerDisconnected(provider: provider)
    }
    public static func taken(_ provider: String, words: Words) -> String {
        words.providerTaken(provider: provider)
    }
    /// "Connect NAME" without a password typed.
    public static func passwordNeeded(_ provider: String, words: Words) -> String {
        words.providerPasswordNeeded(provider: provider)
    }
    public static let wrongPassword = "This is not your password."
    /// The password was right: what the section says beside "Continue to NAME".
    public static func passwordConfirmed(_ provider: String, words: Words) -> String {
        words.providerPasswordConfirmed(provider: provider)
    }
    /// An account neither connected nor with a password: nothing of it can confirm connecting.
    public static func noPassword(_ provider: String, words: Words) -> String {
        words.providerNoPassword(provider: provider)
    }
}

/// "Connect NAME": the person's password beside the button.
public struct ProviderConnectViewModel: Sendable, Equatable, Encodable {
    /// The answer opens at the provider's section (its id), the message or the way on in view.
    public let actionURL: String = Paths.connectProvider.url + "#provider"
    public let password: FormFieldViewModel
    public let submitLabel: String

    public init(provider: String, error: String? = nil, words: Words) {
        password = FormFieldViewModel(
            names: FieldNames(name: AccountField.connectPassword.formName), label: words.providerYourPassword,
            value: "", error: error,
            hint: words.providerYourPasswordHint(provider: provider), inputType: .password,
            autocomplete: "current-password", maxLength: Person.maximumPasswordLength)
        submitLabel = words.providerConnect(provider: provider)
    }
}

/// Beside the password in Settings: what else signs in or reads the account, which a new
/// password does not end, each with a box that ends it when the form is saved.
public struct OtherWaysInViewModel: Sendable, Equatable, Encodable {
    public let legend: String
    public let hint: String
    public let options: [EndingViewModel]

    /// Nil when there is nothing to end.
    init?(provider: String?, hasCalendarLink: Bool, input: AccountInput?, words: Words) {
        (legend, hint) = (words.settingsOtherWaysIn, words.settingsOtherWaysInHint)
        var options: [EndingViewModel] = []
        if let provider {
            options.append(
                EndingViewModel(
                    name: "endProvider", label: words.providerDisconnect(provider: provider),
                    hint: words.settingsProviderSignsIn(provider: provider), isChecked: input?.endsProvider == true))
        }
        if hasCalendarLink {
            options.append(
                EndingViewModel(
                    name: "endCalendarLink", label: words.settingsEndCalendarLink,
                    hint: words.settingsEndCalendarLinkHint,
                    isChecked: input?.endsCalendarLink == true))
        }
        guard !options.isEmpty else { return nil }
        self.options = options
    }

    var endsProvider: Bool { options.contains { $0.name == "endProvider" } }
    var endsCalendarLink: Bool { options.contains { $0.name == "endCalendarLink" } }
}

/// A box beside the password: checked, what it names ends when the form is saved.
public struct EndingViewModel: Sendable, Equatable, Encodable {
    /// The field's name, as `AccountInput` reads it.
    public let name: String
    public let inputID: String
    public let hintID: String
    public let label: String
    public let hint: String
    public let isChecked: Bool

    init(name: String, label: String, hint: String, isChecked: Bool) {
        (self.name, self.label, self.hint, self.isChecked) = (name, label, hint, isChecked)
        inputID = FormFieldViewModel.inputID(forName: name)
        hintID = inputID + "-hint"
    }
}

extension SettingsViewModel {
    /// "Create calendar link", "Reset calendar link": keeps `key` (the SHA-256 of the token in
    /// `url`) as the person's calendar link, which ends any link before it, and answers the
    /// settings page with `url` shown this once.
    public static func makeCalendarLink(
        key: String, url: String, person: Person, acceptsToken: Bool, people: any PeopleRepository,
        context: PageContext
    ) async -> LoadOutcome<SettingsViewModel> {
        var person = person
        do {
            try await people.setCalendarKey(key, of: person.id)
            person.calendarKey = key
            return .page(
                SettingsViewModel(
                    person: person, acceptsToken: acceptsToken, context: context,
                    calendarLink: .calendar(url: url, words: context.words)))
        } catch {
            let words = context.words
            let alert = AlertViewModel(
                title: words.settingsCalendarNotMade,
                message: StorageMessage.text(for: error, otherwise: words.commonSavingFailed, words: words))
            return .partial(
                SettingsViewModel(person: person, acceptsToken: acceptsToken, context: context, alert: alert),
                .storage)
        }
    }
}
