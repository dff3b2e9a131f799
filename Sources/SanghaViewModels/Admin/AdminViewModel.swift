import Foundation
import SanghaCore

/// `/admin`, for administrators: the people by name, a page at a time (`?page=N`), with their
/// joined date, last sign-in and open sessions, what can be done to each, how many people there
/// are in all, and "Invite someone". A link just made (an invitation or a password reset) is
/// shown once, on the page the post answers with.
public struct AdminViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let peopleHeading: String
    /// "12 people have an account."
    public let peopleCount: String
    /// The people of this page.
    public let people: [AdminPersonRow]
    /// "Page 2 of 3"; nil when everyone fits on one page.
    public let paging: PagingViewModel?
    public let inviteHeading: String
    /// What an invitation does with this deployment's `--sign-up`.
    public let inviteHint: String
    /// nil when sign-up is closed: invitations would admit no one.
    public let inviteURL: String?
    public let inviteLabel: String
    /// A link made by the post this page answers: shown this once and never again.
    public let link: OneTimeLinkViewModel?
    public let alert: AlertViewModel?

    /// Page `page` of the list, `people` its people. `row`: a person's row as made before from the
    /// same (`AdminPersonRow.Source`); nil, made here.
    public init(
        people: PeopleOverviewPage, page: Int = 1, signUp: SignUpMode, context: PageContext,
        link: OneTimeLinkViewModel? = nil, alert: AlertViewModel? = nil,
        row: ((AdminPersonRow.Source) -> AdminPersonRow)? = nil
    ) {
        let words = context.words
        self.layout = LayoutViewModel(
            title: page > 1 ? words.adminTitlePage(page: words.number(page)) : words.adminTitle, section: .admin,
            context: context)
        (heading, peopleHeading) = (words.adminTitle, words.adminPeople)
        (inviteHeading, inviteLabel) = (words.adminInvite, words.adminInvite)
        self.people = people.people.map { overview in
            let source = AdminPersonRow.Source(overview, context: context)
            return row?(source) ?? AdminPersonRow(source, words: words)
        }
        peopleCount = words.adminPeopleCount(people.count)
        paging = PagingViewModel(
            page: page, pageCount: PagingViewModel.pageCount(rows: people.count), path: Paths.admin.url,
            words: words)
        switch signUp {
        case .invite:
            inviteHint = words.adminInviteHintInvite
            inviteURL = Paths.adminInvitations.url
        case .adminInvite:
            inviteHint = words.adminInviteHintAdminInvite
            inviteURL = Paths.adminInvitations.url
        case .open:
            inviteHint = words.adminInviteHintOpen
            inviteURL = Paths.adminInvitations.url
        case .closed:
            inviteHint = words.adminInviteHintClosed
            inviteURL = nil
        }
        self.link = link
        self.alert = alert
    }

    /// Page `page` of the list (`PagingViewModel.pageSize` people, read alone), or why it could
    /// not be read; a page past the last is not found (the first always is).
    public static func load(
        page: Int = 1, people: any PeopleRepository, signUp: SignUpMode, context: PageContext,
        link: OneTimeLinkViewModel? = nil, row: ((AdminPersonRow.Source) -> AdminPersonRow)? = nil
    ) async -> LoadOutcome<AdminViewModel> {
        let pageSize = PagingViewModel.pageSize
        // A page no list has (its first row past Int.max) is not read at all.
        guard page >= 1, let offset = PagingViewModel.offset(page: page, pageSize: pageSize) else { return .notFound }
        do {
            let read = try await people.overview(at: context.now, limit: pageSize, offset: offset)
            guard page <= PagingViewModel.pageCount(rows: read.count, pageSize: pageSize) else { return .notFound }
            return .page(
                AdminViewModel(people: read, page: page, signUp: signUp, context: context, link: link, row: row))
        } catch {
            return unavailable(error, context: context)
        }
    }

    public static let closedMessage = "Sign-up is closed: an invitation would admit no one."

    /// "Invite someone": keeps a one-use invitation under `key` (the digest of the token in
    /// `url`) for 7 days, and answers the page with `url` shown this once.
    public static func invite(
        key: String, url: String, people: any PeopleRepository, signUp: SignUpMode, context: PageContext
    ) async -> LoadOutcome<AdminViewModel> {
        guard signUp != .closed else {
            return .failed(
                ErrorPageViewModel(
                    heading: context.words.adminClosedTitle, message: context.words.adminClosed, context: context),
                .conflict)
        }
        guard let administrator = context.person else { return .notFound }
        do {
            try await people.add(
                OneUseLink(
                    key: key, kind: .invitation, personID: administrator.id,
                    expiresAt: context.now.addingTimeInterval(OneUseLink.lifetime(of: .invitation))))
        } catch {
            return unavailable(error, context: context)
        }
        return await load(
            people: people, signUp: signUp, context: context, link: .invitation(url: url, words: context.words))
    }

    /// "Reset password": keeps a one-use reset link for person `id` under `key` for 24 hours, and
    /// answers the page with `url` shown this once; not found when there is no such person.
    public static func passwordReset(
        for id: Int, key: String, url: String, people: any PeopleRepository, signUp: SignUpMode, context: PageContext
    ) async -> LoadOutcome<AdminViewModel> {
        // Without passwords a reset link would set one no one can use: its page says so.
        if let page = PasswordResetViewModel.passwordsOff(context) { return .failed(page, .forbidden) }
        let person: Person
        do {
            guard let found = try await people.credentials(id: id)?.person else { return .notFound }
            person = found
            try await people.add(
                OneUseLink(
                    key: key, kind: .passwordReset, personID: id,
                    expiresAt: context.now.addingTimeInterval(OneUseLink.lifetime(of: .passwordReset))))
        } catch {
            return unavailable(error, context: context)
        }
        return await load(
            people: people, signUp: signUp, context: context,
            link: .passwordReset(url: url, name: person.name, words: context.words))
    }

    private static func unavailable(_ error: any Error, context: PageContext) -> LoadOutcome<AdminViewModel> {
        .failed(
            .storage(
                error, heading: context.words.adminUnavailable, otherwise: context.words.adminReadFailed,
                context: context),
            .storage)
    }
}

/// One person in the administrator's list.
public struct AdminPersonRow: Sendable, Equatable, Encodable {
    public let name: String
    public let username: String
    /// "Joined 2 Mar 2026 · last sign-in 23 Nov 2026 · 2 open sign-ins" (sign-in sessions not
    /// ended: "sessions" alone would read as sits).
    public let detail: String
    /// "Administrator", "Disabled", both or neither.
    public let badges: [String]
    /// The buttons of the row, each a form post.
    public let actions: [AdminActionViewModel]
    /// The reader's form token, which the row's posts carry: the row reads nothing from the page
    /// around it, so its rendering is kept with it.
    public let formToken: String
    /// The row as rendered, while the route keeps it.
    public let rendering = KeptRendering()

    /// The JSON is the row as a person reads it; the token is the page's (`layout`).
    private enum CodingKeys: String, CodingKey {
        case name, username, detail, badges, actions
    }

    /// What a row is made from, and all it is made from: the same for every request of one
    /// administrator's browser that reads the same person, so the route keeps the last row made
    /// (`AdminRoutes.keptRows`).
    public struct Source: Sendable, Equatable {
        public let overview: PersonOverview
        /// The row of the administrator reading it, who cannot disable themselves.
        public let isReader: Bool
        public let timeZone: TimeZone
        public let language: Language
        public let formToken: String
        /// Whether passwords sign in here: without them (`--password-sign-in off`) a reset link
        /// sets none, and the row offers no "Reset password".
        public let passwordsSignIn: Bool

        public init(_ overview: PersonOverview, context: PageContext) {
            (self.overview, isReader) = (overview, overview.person.id == context.person?.id)
            (timeZone, language, formToken) = (context.timeZone, context.words.language, context.formToken)
            passwordsSignIn = context.passwordsSignIn
        }
    }

    /// Made from `source`, in `words` (its language).
    public init(_ source: Source, words: Words) {
        let (overview, person) = (source.overview, source.overview.person)
        name = words.isolated(person.name)
        username = person.username
        formToken = source.formToken
        let joined = WordsDates.shortDate(person.createdAt, timeZone: source.timeZone, words: words)
        let lastSignIn =
            overview.lastSignIn.map { WordsDates.shortDate($0, timeZone: source.timeZone, words: words) }
            ?? words.adminNever
        detail = [
            words.adminJoined(date: joined), words.adminLastSignIn(date: lastSignIn),
            words.adminOpenSignIns(overview.sessions),
        ].joined(separator: " · ")
        badges =
            (person.isAdministrator ? [words.adminAdministrator] : [])
            + (person.isDisabled ? [words.adminDisabled] : [])
        var actions: [AdminActionViewModel] = []
        // An administrator cannot lock themselves out.
        if !source.isReader {
            actions.append(
                person.isDisabled
                    ? AdminActionViewModel(
                        url: Paths.adminEnable.url(person.id), label: words.adminEnable, person: person.name,
                        words: words)
                    : AdminActionViewModel(
                        url: Paths.adminDisable.url(person.id), label: words.adminDisable, person: person.name,
                        words: words))
        }
        if source.passwordsSignIn {
            actions.append(
                AdminActionViewModel(
                    url: Paths.adminPasswordReset.url(person.id), label: words.adminResetPassword,
                    person: person.name, words: words))
        }
        if !person.isAdministrator {
            actions.append(
                AdminActionViewModel(
                    url: Paths.adminMakeAdministrator.url(person.id), label: words.adminMakeAdministrator,
                    person: person.name, words: words))
        }
        self.actions = actions
    }
}

/// A button of the list: a post to `url`, named for the person for screen readers.
public struct AdminActionViewModel: Sendable, Equatable, Encodable {
    public let url: String
    public let label: String
    /// "Disable Ana Lima".
    public let accessibleLabel: String

    init(url: String, label: String, person: String, words: Words) {
        self.url = url
        self.label = label
        self.accessibleLabel = words.adminActionFor(action: label, name: person)
    }
}

/// The administrator's actions on a person: what they change, and what the list then says.
public enum AdminAction: String, Sendable, CaseIterable {
    case disable
    case enable
    case administrator

    /// Where its button posts.
    public var route: Route<Int> {
        switch self {
        case .disable: Paths.adminDisable
        case .enable: Paths.adminEnable
        case .administrator: Paths.adminMakeAdministrator
        }
    }

    /// Does it, and goes back to the list with a message; nil when there is no such person.
    public func perform(on id: Int, people: any PeopleRepository, context: PageContext) async -> SubmitOutcome<
        AdminViewModel
    > {
        let words = context.words
        do {
            guard let person = try await people.credentials(id: id)?.person else { return .notFound }
            if self == .disable, id == context.person?.id {
                return .refused(
                    Redirect(
                        to: Paths.admin.url,
                        flash: .error(title: words.commonNothingChanged, message: words.adminCannotDisableSelf))
                )
            }
            let message: String
            var events: [GroupEvent] = []
            switch self {
            case .disable:
                try await people.setDisabled(true, of: id)
                message = words.adminDisabledDone(name: person.name)
                // Their group pages stop hearing the groups at once.
                events = [.signedOutEverywhere(person: id, except: nil)]
            case .enable:
                try await people.setDisabled(false, of: id)
                message = words.adminEnabledDone(name: person.name)
            case .administrator:
                try await people.makeAdministrator(id)
                message = words.adminAdministratorDone(name: person.name)
            }
            return .redirect(Redirect(to: Paths.admin.url, flash: .success(message), events: events))
        } catch PeopleRepositoryError.notFound {
            return .notFound
        } catch PeopleRepositoryError.lastAdministrator {
            return .refused(
                Redirect(
                    to: Paths.admin.url,
                    flash: .error(title: words.commonNothingChanged, message: words.adminLastAdministrator)))
        } catch {
            let message = StorageMessage.text(for: error, otherwise: words.commonSavingFailed, words: words)
            return .refused(
                Redirect(to: Paths.admin.url, flash: .error(title: words.commonNothingChanged, message: message)))
        }
    }
}
