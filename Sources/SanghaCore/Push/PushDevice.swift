import Foundation

/// A device a person gets notifications on: their browser's push subscription there (its
/// endpoint at the browser's push service, and the keys its messages are encrypted with).
public struct PushDevice: Sendable, Equatable, Identifiable {
    /// The most devices a person has; adding one more removes their oldest.
    public static let limitPerPerson = 10

    public var id: Int
    public var person: Int
    /// Where its messages are posted: unique, so a browser subscribed again replaces its row.
    public var endpoint: String
    /// The browser's public key (the 65-byte uncompressed P-256 point) and secret (16 bytes).
    public var p256dh: [UInt8]
    public var auth: [UInt8]
    /// What Settings calls it: "Firefox on Linux".
    public var name: String
    public var createdAt: Date
    /// The key of the sign-in session it was added under: signing out there removes it.
    public var session: String?

    public init(
        id: Int = 0, person: Int, endpoint: String, p256dh: [UInt8], auth: [UInt8], name: String, createdAt: Date,
        session: String? = nil
    ) {
        (self.id, self.person, self.endpoint, self.p256dh, self.auth) = (id, person, endpoint, p256dh, auth)
        (self.name, self.createdAt, self.session) = (name, createdAt, session)
    }

    /// "Firefox on Linux", from a browser's `User-Agent`; "A browser" when it says nothing known.
    public static func name(userAgent: String?) -> String {
        let agent = userAgent ?? ""
        let browser: String? =
            if agent.contains("Edg/") { "Edge" } else if agent.contains("OPR/") {
                "Opera"
            } else if agent.contains("SamsungBrowser/") {
                "Samsung Internet"
            } else if agent.contains("Firefox/") || agent.contains("FxiOS/") {
                "Firefox"
            } else if agent.contains("Chrome/") || agent.contains("CriOS/") {
                "Chrome"
            } else if agent.contains("Safari/") { "Safari" } else { nil }
        let system: String? =
            if agent.contains("iPhone") { "iPhone" } else if agent.contains("iPad") {
                "iPad"
            } else if agent.contains("Android") {
                "Android"
            } else if agent.contains("Mac OS X") || agent.contains("Macintosh") {
                "macOS"
            } else if agent.contains("Windows") { "Windows" } else if agent.contains("CrOS") {
                "ChromeOS"
            } else if agent.contains("Linux") { "Linux" } else { nil }
        switch (browser, system) {
        case (let browser?, let system?): return "\(browser) on \(system)"
        case (let browser?, nil): return browser
        case (nil, let system?): return "A browser on \(system)"
        case (nil, nil): return "A browser"
        }
    }
}

/// What a person wants to hear of (Settings, "Notifications").
public struct PushChoices: Sendable, Equatable {
    /// "A group sit is about to start".
    public var sits: Bool
    /// "My daily reminder" (at "Remind me to sit at").
    public var reminder: Bool
    /// "Someone in my groups starts sitting".
    public var sitting: Bool

    public init(sits: Bool = true, reminder: Bool = true, sitting: Bool = false) {
        (self.sits, self.reminder, self.sitting) = (sits, reminder, sitting)
    }

    /// Everyone's until they choose.
    public static let standard = PushChoices()
}

/// Someone who gets a message, with their devices.
public struct PushRecipient: Sendable, Equatable {
    public var person: Int
    public var timeZone: TimeZone
    public var devices: [PushDevice]
    /// The language they chose in Settings: their messages are in it (English when nil).
    public var language: Language?

    public init(person: Int, timeZone: TimeZone, devices: [PushDevice], language: Language? = nil) {
        (self.person, self.timeZone, self.devices, self.language) = (person, timeZone, devices, language)
    }
}

/// Someone whose daily reminder may be due: when, in their zone, and the last day they sat.
public struct ReminderRecipient: Sendable, Equatable {
    public var recipient: PushRecipient
    public var dayStartHour: Int
    /// "Remind me to sit at": minutes after midnight in their zone.
    public var minutes: Int
    /// The last day they sat (`LocalDay.number`), counted in their zone from their start hour.
    public var lastDaySat: Int?

    public init(recipient: PushRecipient, dayStartHour: Int, minutes: Int, lastDaySat: Int?) {
        (self.recipient, self.dayStartHour, self.minutes, self.lastDaySat) =
            (recipient, dayStartHour, minutes, lastDaySat)
    }

    public var dayClock: DayClock { DayClock(timeZone: recipient.timeZone, startHour: dayStartHour) }
}

/// Someone who began to sit and shows it to their groups.
public struct SittingStart: Sendable, Equatable {
    public var person: Int
    public var name: String
    public var since: Date
    /// The group sit they sit in, if any: its group is the one told of first.
    public var sitGroup: Int?

    public init(person: Int, name: String, since: Date, sitGroup: Int?) {
        (self.person, self.name, self.since, self.sitGroup) = (person, name, since, sitGroup)
    }
}

/// Who is told that someone began to sit: a member of one of their groups, not sitting, who
/// chose to hear of it, with the group they are told of.
public struct SittingRecipient: Sendable, Equatable {
    public var recipient: PushRecipient
    public var group: Int
    public var groupName: String

    public init(recipient: PushRecipient, group: Int, groupName: String) {
        (self.recipient, self.group, self.groupName) = (recipient, group, groupName)
    }
}

public enum PushRepositoryError: Error, Sendable, Equatable {
    case storage(String)
    case unreachable(String)
}

/// Where devices, choices, the deployment's key pair and what was sent are kept. Each message
/// goes once to each device however many instances run: the instance that claims (message,
/// device) first sends it (`claim`), a unique key in the database, not a lock in memory.
public protocol PushRepository: Sendable {
    /// The deployment's VAPID private key: `fresh` is kept when there is none yet; the one kept
    /// is answered, so every instance signs with the same.
    func vapidKey(keeping fresh: [UInt8]) async throws(PushRepositoryError) -> [UInt8]

    /// A person's devices, newest first.
    func devices(of person: Int) async throws(PushRepositoryError) -> [PushDevice]
    /// Keeps `device` (one with its endpoint is replaced, whoever's it was), and removes the
    /// person's oldest beyond `limit`. Answers it as kept.
    func add(_ device: PushDevice, limit: Int) async throws(PushRepositoryError) -> PushDevice
    /// Removes one of the person's devices; false when it is not theirs or not there.
    func remove(device id: Int, of person: Int) async throws(PushRepositoryError) -> Bool
    /// Signing out: removes the person's devices added under `session` and the one at `endpoint`.
    func signedOut(session: String?, endpoint: String?, of person: Int) async throws(PushRepositoryError)
    func choices(of person: Int) async throws(PushRepositoryError) -> PushChoices
    func setChoices(_ choices: PushChoices, of person: Int) async throws(PushRepositoryError)

    /// A device its push service no longer knows (404, 410).
    func delete(device id: Int) async throws(PushRepositoryError)
    /// The sits not cancelled that may be about to begin: every weekly one, and those that
    /// happen once and begin between `from` and `to`.
    func sits(beginningFrom from: Date, to: Date) async throws(PushRepositoryError) -> [CalendarSit]
    /// A group's members who want to hear of its sits, with their devices.
    func sitRecipients(of group: Int) async throws(PushRepositoryError) -> [PushRecipient]
    /// Those with a reminder time who want it, with their devices.
    func reminderRecipients() async throws(PushRepositoryError) -> [ReminderRecipient]
    /// Who began to sit since `since` and is sitting at `date`, showing it.
    func sittingStarts(since: Date, at date: Date) async throws(PushRepositoryError) -> [SittingStart]
    /// Who is told that `start` began: members of the sitter's groups (not the sitter), not
    /// sitting at `date`, who chose it, each once, with the sit's group or the first shared.
    func sittingRecipients(of start: SittingStart, at date: Date) async throws(PushRepositoryError)
        -> [SittingRecipient]
    /// Claims message `key` for `devices` at `date`: answers those no one claimed before.
    func claim(_ key: String, devices: [Int], at date: Date) async throws(PushRepositoryError) -> [Int]
    /// Forgets the claims made before `date` (they can no longer be made again).
    func forgetClaims(before date: Date) async throws(PushRepositoryError)
}

extension PushRepositoryError: StorageError {
    public var isUnreachable: Bool {
        if case .unreachable = self { true } else { false }
    }
}
