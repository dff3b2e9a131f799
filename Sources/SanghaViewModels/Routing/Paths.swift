/// Every URL Sangha answers, each written once. The router registers these patterns (the
/// `…Routes` type of each area in SanghaWeb), and view models build their links and redirects
/// from them, so a URL found in a browser leads here, and its name leads to its handler
/// (`…Routes`), its view model and its template (named as the view model, in kebab case).
///
/// `RouteTableTests` checks that the router answers exactly these.
public enum Paths {
    // MARK: Home and the person (PeopleRoutes, HomeRoutes)

    public static let home = Route<Void>("/")
    public static let signUp = Route<Void>("/sign-up")
    public static let signIn = Route<Void>("/sign-in")
    /// "Sign in with NAME": off to the group's identity provider (`?next=`, `?invitation=`)…
    public static let providerSignInStart = Route<Void>("/sign-in/oidc/start")
    /// …and back from it (OpenID Connect's redirect URI).
    public static let providerSignIn = Route<Void>("/sign-in/oidc")
    public static let signOut = Route<Void>("/sign-out")
    /// The language picker of the sign-in and sign-up pages: sets the `lang` cookie.
    public static let language = Route<Void>("/language")
    public static let resetPassword = Route<Void>("/reset-password")
    public static let settings = Route<Void>("/settings")
    public static let deleteAccount = Route<Void>("/settings/delete")
    /// "Create calendar link", "Reset calendar link" (CalendarRoutes).
    public static let calendarLink = Route<Void>("/settings/calendar")
    /// "Connect NAME" (a post with the person's password, whose answer links on to the identity
    /// provider, and back) and "Disconnect NAME".
    public static let connectProvider = Route<Void>("/settings/oidc/connect")
    public static let disconnectProvider = Route<Void>("/settings/oidc/disconnect")
    /// "Confirm with NAME": signing in again at the provider, for an account without a password.
    public static let confirmProvider = Route<Void>("/settings/oidc/confirm")
    public static let me = Route<Void>("/me")

    // MARK: Profiles (ProfilesRoutes)

    public static let profiles = Route<Void>("/profiles")
    public static let profilesExport = Route<Void>("/profiles/export.json")
    /// The editor.
    public static let profile = Route<Int>("/profiles/{id}")
    /// The sitting page.
    public static let sit = Route<Int>("/profiles/{id}/sit")
    public static let deleteProfile = Route<Int>("/profiles/{id}/delete")

    // MARK: Sitting (SittingRoutes): what the sitting page's script posts

    /// A finished sit.
    public static let sessions = Route<Void>("/sessions")
    /// "Sitting now" begins…
    public static let sitting = Route<Void>("/sitting")
    /// …and ends.
    public static let sittingStop = Route<Void>("/sitting/stop")

    // MARK: History (HistoryRoutes)

    public static let history = Route<Void>("/history")
    public static let historyCSV = Route<Void>("/history/export.csv")
    public static let historyJSON = Route<Void>("/history/export.json")
    public static let historyImport = Route<Void>("/history/import")
    /// "Add a session" posts here.
    public static let historySessions = Route<Void>("/history/sessions")
    public static let historySession = Route<Int>("/history/sessions/{id}")
    public static let deleteHistorySession = Route<Int>("/history/sessions/{id}/delete")

    // MARK: Friends (FriendsRoutes)

    public static let friends = Route<Void>("/friends")
    public static let newFriend = Route<Void>("/friends/new")
    /// "Save" on the edit form posts here.
    public static let friend = Route<Int>("/friends/{id}")
    public static let editFriend = Route<Int>("/friends/{id}/edit")
    public static let deleteFriend = Route<Int>("/friends/{id}/delete")

    // MARK: Groups (GroupsRoutes)

    public static let groups = Route<Void>("/groups")
    /// An invitation link: the page that offers to join, and joining.
    public static let groupInvitationLink = Route<String>("/groups/invite/{token}")
    public static let group = Route<Int>("/groups/{id}")
    /// The group page's live parts (Server-Sent Events); `?sit=` for a sit's page.
    public static let groupEvents = Route<Int>("/groups/{id}/events")
    public static let groupInvitations = Route<Int>("/groups/{id}/invitations")
    public static let revokeGroupInvitation = Route<(Int, Int)>("/groups/{id}/invitations/{invitation}/revoke")
    public static let leaveGroup = Route<Int>("/groups/{id}/leave")
    public static let removeGroupMember = Route<(Int, Int)>("/groups/{id}/members/{person}/remove")
    /// "Let back in": someone removed may join again by a link.
    public static let readmitGroupMember = Route<(Int, Int)>("/groups/{id}/removed/{person}/readmit")
    public static let groupSits = Route<Int>("/groups/{id}/sits")
    public static let groupSit = Route<(Int, Int)>("/groups/{id}/sits/{sit}")
    public static let cancelGroupSit = Route<(Int, Int)>("/groups/{id}/sits/{sit}/cancel")
    /// "Add to calendar": the sit as an iCalendar file (CalendarRoutes).
    public static let groupSitCalendar = Route<(Int, Int)>("/groups/{id}/sits/{sit}/calendar.ics")
    /// The server's time, by which a group sit's bells ring at once in every home.
    public static let clock = Route<Void>("/clock")

    // MARK: Calendars (CalendarRoutes)

    /// A person's calendar feed, read by calendar apps without a cookie: the token is the key.
    public static let calendarFeed = Route<String>("/calendar/{token}.ics")

    // MARK: Admin (AdminRoutes)

    public static let admin = Route<Void>("/admin")
    public static let adminInvitations = Route<Void>("/admin/invitations")
    public static let adminPasswordReset = Route<Int>("/admin/people/{id}/reset-password")
    public static let adminDisable = Route<Int>("/admin/people/{id}/disable")
    public static let adminEnable = Route<Int>("/admin/people/{id}/enable")
    public static let adminMakeAdministrator = Route<Int>("/admin/people/{id}/administrator")

    // MARK: The installed app (InstallRoutes)

    /// The web app manifest: name, colours, icons.
    public static let manifest = Route<Void>("/manifest.webmanifest")
    /// At the root, so its scope is the whole site.
    public static let serviceWorker = Route<Void>("/service-worker.js")
    /// What the service worker shows for a page never opened on the device, without a network.
    public static let offline = Route<Void>("/offline")

    // MARK: Notifications (PushRoutes)

    /// The deployment's VAPID public key, base64url, as `text/plain`: what a browser subscribes with.
    public static let pushKey = Route<Void>("/push/key")
    /// The page's script posts a device's subscription here (201).
    public static let pushSubscriptions = Route<Void>("/push/subscriptions")
    /// "Remove" beside a device in Settings.
    public static let removePushDevice = Route<Int>("/push/subscriptions/{id}/delete")
    /// The three choices of Settings' "Notifications".
    public static let notificationChoices = Route<Void>("/settings/notifications")

    // MARK: For operators (Application+build)

    public static let health = Route<Void>("/health")
    public static let ready = Route<Void>("/health/ready")
    public static let metrics = Route<Void>("/metrics")

    /// Every route above, for the test that compares them with the router's.
    public static let all: [any AnyRoute] = [
        home, signUp, signIn, providerSignInStart, providerSignIn, signOut, language, resetPassword, settings,
        deleteAccount,
        calendarLink, connectProvider, disconnectProvider, confirmProvider, me,
        profiles, profilesExport, profile, sit, deleteProfile,
        sessions, sitting, sittingStop,
        history, historyCSV, historyJSON, historyImport, historySessions, historySession, deleteHistorySession,
        friends, newFriend, friend, editFriend, deleteFriend,
        groups, groupInvitationLink, group, groupEvents, groupInvitations, revokeGroupInvitation, leaveGroup,
        removeGroupMember, readmitGroupMember, groupSits, groupSit, cancelGroupSit, groupSitCalendar, clock,
        calendarFeed,
        admin, adminInvitations, adminPasswordReset, adminDisable, adminEnable, adminMakeAdministrator,
        manifest, serviceWorker, offline,
        pushKey, pushSubscriptions, removePushDevice, notificationChoices,
        health, ready, metrics,
    ]
}

extension Paths {
    /// A one-use sign-up link's path: the sign-up page with its invitation.
    public static func invitation(_ token: String) -> String { signUp.url + "?invitation=" + token }

    /// A one-use password reset link's path.
    public static func passwordReset(_ token: String) -> String { resetPassword.url + "?token=" + token }
}
