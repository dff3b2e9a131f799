import Foundation

/// Who may create an account (`--sign-up`).
public enum SignUpMode: String, Sendable, CaseIterable {
    /// With a one-use invitation from an administrator, or a group's invitation link (which any
    /// member who hosts a group can make, for 7 days): the default.
    case invite
    /// With a one-use invitation from an administrator only: a group's link lets people who
    /// have an account join the group, and admits no one new.
    case adminInvite = "admin-invite"
    /// Anyone who finds the page.
    case open
    /// No one (but the first person of a new deployment, its administrator).
    case closed

    /// Whether an administrator's invitation admits someone new.
    public var takesInvitations: Bool { self != .closed }
}

/// What a sign-up brings to the door.
public enum Admission: Sendable, Equatable {
    /// Anyone may come in (sign-up is open).
    case anyone
    /// Only with the invitation kept under this key (nil: none); a new deployment's first
    /// person needs none.
    case invitation(key: String?)
    /// With a group's invitation link, kept under this key, not expired nor revoked. It stays
    /// valid for others: a group link admits many people within its 7 days.
    case groupInvitation(key: String)
}

extension Admission {
    /// What a new person brings under `mode`: with `invite`, an administrator's invitation
    /// (`invitationKey`) or else a group's link (`groupInvitationKey`); with `admin-invite`, only
    /// the former; with `closed`, nothing that admits (the store lets a new deployment's first
    /// person in all the same). The same for a password sign-up and the identity provider's.
    public init(mode: SignUpMode, invitationKey: String?, groupInvitationKey: String?) {
        switch mode {
        case .open: self = .anyone
        case .invite:
            if invitationKey == nil, let groupInvitationKey {
                self = .groupInvitation(key: groupInvitationKey)
            } else {
                self = .invitation(key: invitationKey)
            }
        case .adminInvite: self = .invitation(key: invitationKey)
        case .closed: self = .invitation(key: nil)
        }
    }
}

/// A link that works once before it expires: an invitation to sign up, or a password reset.
/// The link carries a random token; only its digest (`key`) is kept, like a session's.
public struct OneUseLink: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case invitation
        case passwordReset
    }

    public var key: String
    public var kind: Kind
    /// An invitation's administrator, or the person whose password a reset link sets.
    public var personID: Int
    public var expiresAt: Date

    public init(key: String, kind: Kind, personID: Int, expiresAt: Date) {
        (self.key, self.kind, self.personID, self.expiresAt) = (key, kind, personID, expiresAt)
    }

    /// How long each kind works.
    public static func lifetime(of kind: Kind) -> TimeInterval {
        switch kind {
        case .invitation: 7 * 86_400
        case .passwordReset: 86_400
        }
    }
}

/// A person as the administrator's list shows them.
public struct PersonOverview: Sendable, Equatable {
    public var person: Person
    public var lastSignIn: Date?
    /// Sign-in sessions not ended.
    public var sessions: Int

    public init(person: Person, lastSignIn: Date?, sessions: Int) {
        (self.person, self.lastSignIn, self.sessions) = (person, lastSignIn, sessions)
    }
}

/// A page of the administrator's list, and how many people have an account in all.
public struct PeopleOverviewPage: Sendable, Equatable {
    public var people: [PersonOverview]
    public var count: Int

    public init(people: [PersonOverview], count: Int) {
        (self.people, self.count) = (people, count)
    }
}

/// What failed sign-ins are counted against besides a username (which can contain neither a
/// space nor a colon, so the keys never meet one).
public enum AttemptKey {
    /// A client address: its sign-ups and failed sign-ins.
    public static func address(_ address: String) -> String { "address: \(address)" }
    /// A device cookie's own failures: the cookie exempts from the username's and the address's
    /// counts, not from its own.
    public static func device(_ nonce: String) -> String { "device: \(nonce)" }
}

/// The limits on guessing.
public enum Guessing {
    /// Sign-ups and failed sign-ins from one address within `SignInSession.failureWindow`,
    /// unless `--address-limit` says otherwise.
    public static let defaultAddressLimit = 30
    /// When the oldest of the last `limit` attempts leaves the window: "Try again in N minutes."
    public static func minutesLeft(_ attempts: [Date], limit: Int, at date: Date) -> Int {
        guard attempts.count >= limit, limit > 0 else { return 1 }
        let freed = attempts[attempts.count - limit].addingTimeInterval(SignInSession.failureWindow)
        return max(1, Int((freed.timeIntervalSince(date) / 60).rounded(.up)))
    }
}
