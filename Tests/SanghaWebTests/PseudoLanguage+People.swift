import Foundation
import SanghaCore
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// Settings, the person's own page, the password reset page, Admin, the error pages, the
/// offline page and the paging of lists, in the pseudo-language: every text through the catalog.
/// What stays as it is: what people typed (names, usernames, device names), the identity
/// provider's name, time zone names, and the month names the formatters write.
extension PseudoLanguageTests {
    static let ada = Person(
        id: 1, username: "ada", name: "Ada Lovelace", createdAt: Date(timeIntervalSince1970: 1_780_000_000),
        isAdministrator: true, timeZone: .gmt)

    static var signedIn: PageContext {
        var context = Self.context
        context.signIn(ada)
        return context
    }

    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// The page's texts outside the catalog, once `data` (what people typed, names) is taken out.
    static func skippedTexts(_ page: some Page, except data: [String]) -> [String] {
        let data =
            data + ["Ada Lovelace", "Pocket ID", "Etc/GMT", "Etc/UTC", "GMT", "UTC"] + months
            + months.map { String($0.prefix(3)) }
        return texts(String(buffer: page.compiledHTMLBuffer())).compactMap { text in
            var rest = text
            for datum in data { rest = rest.replacingOccurrences(of: datum, with: "") }
            return skipped(rest)
        }
    }

    @Test("Settings says everything through the catalog, in each of its states")
    func settings() {
        let words = Self.context.words
        func settings(
            _ account: ProviderAccount?, person: Person = Self.ada, acceptsToken: Bool = false,
            errors: [AccountField: String] = [:], alert: AlertViewModel? = nil, continueURL: String? = nil,
            link: OneTimeLinkViewModel? = nil, notifications: NotificationsSectionViewModel? = nil
        ) -> SettingsViewModel {
            var context = Self.signedIn
            context.providerAccount = account
            if account == nil { context.signInProvider = nil }
            return SettingsViewModel(
                person: person, acceptsToken: acceptsToken, context: context, errors: errors, alert: alert,
                timeZoneNames: ["Europe/Berlin"], calendarLink: link, providerContinueURL: continueURL,
                notifications: notifications)
        }
        var linked = Self.ada
        linked.calendarKey = "key"
        linked.reminderMinutes = 390
        linked.friendServiceToken = "secret-token-7f3a"
        let device = PushDevice(
            id: 2, person: 1, endpoint: "https://updates.push.services.mozilla.com/wpush/v2/a", p256dh: [], auth: [],
            name: "Firefox on Android", createdAt: Date(timeIntervalSince1970: 1_795_000_000))
        let pages = [
            settings(nil),
            settings(
                nil, person: linked, acceptsToken: true, link: .calendar(url: "https://x.example/c", words: words)),
            settings(nil, acceptsToken: true),
            settings(
                ProviderAccount(isConnected: false, hasPassword: true),
                errors: [
                    .name: Person.nameRefusal("", words: words)!,
                    .about: Person.aboutRefusal(String(repeating: "a", count: 3000), words: words)!,
                    .newPassword: Person.passwordRefusal("short", words: words)!,
                    .currentPassword: words.settingsEnterCurrentPassword,
                    .connectPassword: words.providerWrongPassword,
                ],
                alert: AlertViewModel(
                    title: words.settingsCouldNotSave, message: Requester.tooManyAttempts(minutes: 5, words: words))),
            settings(ProviderAccount(isConnected: false, hasPassword: true), continueURL: "https://id.example/a"),
            settings(ProviderAccount(isConnected: true, hasPassword: true), person: linked),
            settings(ProviderAccount(isConnected: true, hasPassword: false)),
            settings(ProviderAccount(isConnected: true, hasPassword: false, isConfirmed: true)),
            settings(ProviderAccount(isConnected: false, hasPassword: false)),
            settings(
                nil, person: linked,
                notifications: NotificationsSectionViewModel(
                    devices: [device], choices: PushChoices(sits: true, reminder: false, sitting: true),
                    reminderMinutes: 390, timeZone: .gmt, words: words)),
            settings(
                nil,
                notifications: NotificationsSectionViewModel(
                    devices: [], choices: .standard, reminderMinutes: nil, timeZone: .gmt, words: words)),
        ]
        for page in pages {
            #expect(Self.skippedTexts(page, except: ["Europe/Berlin", "Firefox on Android"]) == [])
        }
        // The script's lines, in the page's attributes.
        let html = String(buffer: pages[9].compiledHTMLBuffer())
        for attribute in ["data-push-on", "data-push-unsupported", "data-push-iphone", "data-push-denied"] {
            #expect(html.contains(attribute + "=\"["), "\(attribute)")
        }
        #expect(Self.skipped(pages[0].useDeviceTimeZoneLabel) == nil)
    }

    @Test("The flash lines and refusals of Settings and the identity provider go through the catalog")
    func settingsMessages() {
        let words = Self.context.words
        let lines = [
            words.settingsSaved, words.settingsSignedOutElsewhere, words.settingsCalendarLinkEnded,
            words.settingsDeleted, words.settingsOnlyAdministrator, words.settingsDeleteTypePassword,
            ProviderSectionViewModel.connected("Pocket ID", words: words),
            ProviderSectionViewModel.disconnected("Pocket ID", words: words),
            ProviderSectionViewModel.taken("Pocket ID", words: words),
            ProviderSectionViewModel.onlyWayIn("Pocket ID", words: words),
            ProviderConfirmViewModel.confirmed("Pocket ID", words: words),
            ProviderConfirmViewModel.first("Pocket ID", words: words),
            words.accountSignedOut, words.accountGone, words.accountDatabaseFailed,
            words.passwordResetDone, words.notificationsRemoved, words.notificationsSaved,
            PasswordHashingError.message(words), Person.usernameRefusal("a", words: words)!,
            Person.passwordRefusal("adalovelace", username: "adalovelace", words: words)!,
            Person.passwordRefusal(String(repeating: "x", count: 300), words: words)!,
            Person.nameRefusal("a\u{202E}b", words: words)!, Person.nameRefusal("a\u{7}b", words: words)!,
            Person.nameRefusal(String(repeating: "a", count: 101), words: words)!,
            Person.aboutRefusal("a\u{7}b", words: words)!,
            NotificationMessage.sitting(name: "Ada", group: 1, groupName: "x", words: words).title,
            NotificationMessage.reminder(words).title, NotificationMessage.reminder(words).body,
        ]
        let refusals: [NotificationsSectionViewModel.Refusal] = [
            .noEndpoint, .malformedEndpoint, .notHTTPS, .unknownService, .badKey, .badAuth,
        ]
        for refusal in refusals {
            #expect(Self.skipped(refusal.message(in: words)) == nil, "\(refusal)")
        }
        for line in lines {
            #expect(Self.skipped(line.replacingOccurrences(of: "Pocket ID", with: "")) == nil, "\(line)")
        }
    }

    @Test("The person's own page says its own words through the catalog")
    func me() {
        let words = Self.context.words
        let header = MeHeaderViewModel(person: Self.ada, sessionCount: 12, timeZone: .gmt, words: words)
        let about = MeAboutViewModel(person: Self.ada, words: words)
        let friends = MeFriendsViewModel(friends: [], words: words)
        let practice = MePracticeViewModel(
            practice: nil, profiles: [], profileCount: 3, timeZone: .gmt, words: words)
        let texts =
            [header.sinceText, about.title, about.emptyMessage ?? "", about.editLink?.label ?? ""]
            + [friends.title, friends.countText ?? ""]
            + [practice.title, practice.streakLabel, practice.totalTimeLabel, practice.sessionsTitle]
            + [practice.historyLabel, practice.profilesTitle, practice.profilesCountText ?? ""]
            + [practice.totalTimeText, practice.errorMessage ?? ""]
        for text in texts {
            var rest = text
            for month in Self.months { rest = rest.replacingOccurrences(of: month, with: "") }
            #expect(Self.skipped(rest) == nil, "\(text)")
        }
    }

    @Test("The password reset page says everything through the catalog")
    func passwordReset() {
        var context = Self.context
        context.signInProvider = nil
        let words = context.words
        for page in [
            PasswordResetViewModel(name: "Bob Brown", token: "cd", context: context),
            PasswordResetViewModel(
                name: "Bob Brown", token: "cd", context: context, error: Person.passwordRefusal("123", words: words),
                alert: AlertViewModel(title: words.passwordResetCouldNotSet, message: words.commonSavingFailed)),
        ] {
            #expect(Self.skippedTexts(page, except: ["Bob Brown"]) == [])
        }
    }

    @Test("Admin says everything through the catalog, in each of its states")
    func admin() {
        let words = Self.context.words
        let people = PeopleOverviewPage(
            people: [
                PersonOverview(person: Self.ada, lastSignIn: Date(timeIntervalSince1970: 1_794_990_000), sessions: 2),
                PersonOverview(
                    person: Person(
                        id: 2, username: "bob", name: "Bob Brown",
                        createdAt: Date(timeIntervalSince1970: 1_790_000_000),
                        isDisabled: true),
                    lastSignIn: nil, sessions: 1),
            ], count: 120)
        let except = ["Bob Brown", "@ada", "@bob"]
        for signUp in [SignUpMode.invite, .adminInvite, .open, .closed] {
            #expect(
                Self.skippedTexts(
                    AdminViewModel(people: people, signUp: signUp, context: Self.signedIn), except: except) == [])
        }
        for link in [
            OneTimeLinkViewModel.invitation(url: "https://x.example/i", words: words),
            .passwordReset(url: "https://x.example/r", name: "Bob Brown", words: words),
        ] {
            let page = AdminViewModel(people: people, page: 2, signUp: .invite, context: Self.signedIn, link: link)
            #expect(Self.skippedTexts(page, except: except) == [])
        }
        for line in [
            words.adminCannotDisableSelf, words.adminDisabledDone(name: "Bob"), words.adminEnabledDone(name: "Bob"),
            words.adminAdministratorDone(name: "Bob"), words.adminLastAdministrator, words.commonNothingChanged,
            OneTimeLinkViewModel.groupInvitation(url: "https://x.example/g", words: words).note,
        ] {
            #expect(Self.skipped(line.replacingOccurrences(of: "Bob", with: "")) == nil, "\(line)")
        }
    }

    @Test("The error pages and the offline page say everything through the catalog")
    func errorPages() {
        let kinds: [ErrorPageViewModel.Kind] = [
            .notFound, .badRequest, .contentTooLarge, .signInRequired,
            .other(reasonPhrase: "Internal Server Error"), .other(reasonPhrase: "Service Unavailable"),
            .other(reasonPhrase: "Forbidden"), .other(reasonPhrase: "Too Many Requests"),
            .other(reasonPhrase: "Method Not Allowed"), .other(reasonPhrase: "Conflict"),
            .other(reasonPhrase: "Unsupported Media Type"),
        ]
        for kind in kinds {
            #expect(Self.skippedTexts(ErrorPageViewModel(kind, message: nil, context: Self.context), except: []) == [])
            #expect(Self.skippedTexts(ErrorPageViewModel(kind, message: nil, context: Self.signedIn), except: []) == [])
        }
        let words = Self.context.words
        for message in [
            words.errorFormExpired, words.errorSignInCheckFailed, words.storageUnreachable,
            words.accountPasswordsOff(way: words.signInWithProvider(provider: "Pocket ID")),
        ] {
            let page = ErrorPageViewModel(.other(reasonPhrase: "Forbidden"), message: message, context: Self.context)
            #expect(Self.skippedTexts(page, except: []) == [])
        }
        #expect(Self.skippedTexts(OfflineViewModel(context: Self.signedIn), except: []) == [])
        let paging = PagingViewModel(page: 2, pageCount: 3, path: "/admin", words: words)
        #expect(
            [paging?.label, paging?.navigationLabel, paging?.previousLabel, paging?.nextLabel].compactMap {
                $0.flatMap(Self.skipped)
            } == [])
    }

    @Test("Settings, Admin and the error pages speak German and Arabic")
    func translated() {
        var german = Self.signedIn
        german.language = .de
        german.signInProvider = nil
        let settings = String(
            buffer: SettingsViewModel(person: Self.ada, acceptsToken: false, context: german).compiledHTMLBuffer())
        #expect(settings.contains("<h1>Einstellungen</h1>"))
        #expect(settings.contains("Zeitzone"))
        #expect(settings.contains("Konto löschen"))
        let admin = AdminViewModel(
            people: PeopleOverviewPage(
                people: [PersonOverview(person: Self.ada, lastSignIn: nil, sessions: 1)], count: 1),
            signUp: .open, context: german)
        let adminHTML = String(buffer: admin.compiledHTMLBuffer())
        #expect(adminHTML.contains("Jemanden einladen"))
        #expect(adminHTML.contains("1 aktive Anmeldung"))
        #expect(adminHTML.contains("1 Person hat ein Konto."))
        var arabic = Self.context
        arabic.language = .ar
        let notFound = String(buffer: ErrorPageViewModel.notFound(context: arabic).compiledHTMLBuffer())
        #expect(notFound.contains("<h1>الصفحة غير موجودة</h1>"))
        #expect(notFound.contains(#"<html lang="ar" dir="rtl">"#))
        #expect(Requester.tooManyAttempts(minutes: 2, words: arabic.words).contains("دقيقتين"))
        #expect(Requester.tooManyAttempts(minutes: 5, words: Words(.pl)).hasSuffix("za 5 minut."))
        #expect(
            NotificationMessage.sitting(name: "Ada", group: 1, groupName: "Zen", words: german.words).title
                == "Ada meditiert gerade")
        #expect(
            NotificationMessage.sitting(name: "سارا", group: 1, groupName: "Zen", words: german.words).title
                == "\u{2068}سارا\u{2069} meditiert gerade")
        #expect(NotificationMessage.reminder(german.words).title == "Zeit zu meditieren")
    }

    @Test("English stays as it was: the core messages' variants say what the old English ones said")
    func englishUnchanged() {
        let english = Words.english
        #expect(PasswordHashingError.message(english) == PasswordHashingError.message)
        for minutes in [1, 2, 15] {
            #expect(
                Requester.tooManyAttempts(minutes: minutes, words: english)
                    == Requester.tooManyAttempts(minutes: minutes))
        }
        for password in ["short", String(repeating: "x", count: 300), "password123", "a-good-long-passphrase"] {
            #expect(
                Person.passwordRefusal(password, username: "x", words: english)
                    == Person.passwordRefusal(password, username: "x"))
        }
        for name in ["", "a\u{7}", "a\u{202E}", String(repeating: "a", count: 101), "Ada"] {
            #expect(Person.nameRefusal(name, words: english) == Person.nameRefusal(name))
        }
        #expect(Person.usernameRefusal("a", words: english) == Person.usernameRefusal("a"))
        #expect(
            Person.aboutRefusal(String(repeating: "a", count: 2001), words: english)
                == Person.aboutRefusal(String(repeating: "a", count: 2001)))
        #expect(english.storageUnreachable == StorageMessage.unreachable)
        #expect(english.errorFormExpired == CSRFMiddleware.refusal)
        #expect(english.errorSignInCheckFailed == SignInMiddleware.failed)
        #expect(NotificationMessage.reminder(english) == NotificationMessage.reminder)
    }
}
