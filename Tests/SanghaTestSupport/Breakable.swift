import Foundation
import SanghaCore
import Synchronization

/// A switch a test turns to make a store fail as a broken disk (`.storage`) or a database out of
/// reach (`.unreachable`) would, and turns back (`nil`) to make it answer again.
public final class Fault: Sendable {
    public enum Kind: Sendable {
        case storage
        case unreachable
    }

    private let kind: Mutex<Kind?>

    public init(_ kind: Kind? = nil) {
        self.kind = Mutex(kind)
    }

    /// From now on every call fails as `kind` (nil: none does).
    public func fail(_ kind: Kind?) {
        self.kind.withLock { $0 = kind }
    }

    /// Throws the failure as the repository's own error, when the test made one.
    public func check<Failure: StorageError>(_: Failure.Type) throws(Failure) {
        switch kind.withLock({ $0 }) {
        case nil: return
        case .storage: throw .storage("the test broke the disk")
        case .unreachable: throw .unreachable("the test stopped the database")
        }
    }
}

/// A real repository (`Base`) that fails as its `Failure` while its `fault` is on, and is itself
/// otherwise: every call is the real store's, or the failure. One type for every repository: its
/// conformances below only pass each call on.
public struct Breakable<Base: Sendable, Failure: StorageError>: Sendable {
    public let base: Base
    public let fault: Fault

    func check() throws(Failure) { try fault.check(Failure.self) }
}

extension Breakable where Base == any ProfileRepository, Failure == ProfileRepositoryError {
    public init(_ base: any ProfileRepository, fault: Fault) { (self.base, self.fault) = (base, fault) }
}

extension Breakable where Base == any SittingSessionRepository, Failure == SittingSessionRepositoryError {
    public init(_ base: any SittingSessionRepository, fault: Fault) { (self.base, self.fault) = (base, fault) }
}

extension Breakable where Base == any GroupRepository, Failure == GroupRepositoryError {
    public init(_ base: any GroupRepository, fault: Fault) { (self.base, self.fault) = (base, fault) }
}

extension Breakable where Base == any PeopleRepository, Failure == PeopleRepositoryError {
    public init(_ base: any PeopleRepository, fault: Fault) { (self.base, self.fault) = (base, fault) }
}

extension Breakable: ProfileRepository where Base == any ProfileRepository, Failure == ProfileRepositoryError {
    public func list(limit: Int, offset: Int) async throws(Failure) -> ProfileListPage {
        try check()
        return try await base.list(limit: limit, offset: offset)
    }
    public func get(id: Int) async throws(Failure) -> Profile? {
        try check()
        return try await base.get(id: id)
    }
    public func create(_ profile: Profile) async throws(Failure) -> Profile {
        try check()
        return try await base.create(profile)
    }
    public func update(_ profile: Profile) async throws(Failure) -> Profile {
        try check()
        return try await base.update(profile)
    }
    public func delete(id: Int) async throws(Failure) -> Bool {
        try check()
        return try await base.delete(id: id)
    }
}

extension Breakable: SittingSessionRepository
where Base == any SittingSessionRepository, Failure == SittingSessionRepositoryError {
    public func record(_ session: SittingSession, clientID: String?) async throws(Failure) -> SittingSession {
        try check()
        return try await base.record(session, clientID: clientID)
    }
    public func recent(limit: Int, offset: Int) async throws(Failure) -> [SittingSession] {
        try check()
        return try await base.recent(limit: limit, offset: offset)
    }
    public func totals() async throws(Failure) -> SittingTotals {
        try check()
        return try await base.totals()
    }
    public func practice(today: LocalDay, recent: Int, offset: Int) async throws(Failure) -> Practice {
        try check()
        return try await base.practice(today: today, recent: recent, offset: offset)
    }
    public func session(id: Int) async throws(Failure) -> SittingSession? {
        try check()
        return try await base.session(id: id)
    }
    public func update(_ session: SittingSession) async throws(Failure) -> Bool {
        try check()
        return try await base.update(session)
    }
    public func delete(id: Int) async throws(Failure) -> Bool {
        try check()
        return try await base.delete(id: id)
    }
    public func sessions(after cursor: SittingSession.Cursor?, limit: Int) async throws(Failure) -> [SittingSession] {
        try check()
        return try await base.sessions(after: cursor, limit: limit)
    }
    public func importSessions(_ sessions: [SittingSession], commit: Bool, limit: Int) async throws(Failure)
        -> SittingSession.ImportCount
    {
        try check()
        return try await base.importSessions(sessions, commit: commit, limit: limit)
    }
    public func keepImport(_ file: Data, key: String, at date: Date, expiresAt: Date) async throws(Failure) {
        try check()
        try await base.keepImport(file, key: key, at: date, expiresAt: expiresAt)
    }
    public func keptImport(key: String, at date: Date) async throws(Failure) -> Data? {
        try check()
        return try await base.keptImport(key: key, at: date)
    }
    public func forgetImport(key: String) async throws(Failure) {
        try check()
        try await base.forgetImport(key: key)
    }
}

extension Breakable: GroupRepository where Base == any GroupRepository, Failure == GroupRepositoryError {
    public func list() async throws(Failure) -> [GroupSummary] {
        try check()
        return try await base.list()
    }
    public func create(name: String, at date: Date) async throws(Failure) -> SittingGroup {
        try check()
        return try await base.create(name: name, at: date)
    }
    public func group(_ id: Int, at date: Date) async throws(Failure) -> GroupDetail? {
        try check()
        return try await base.group(id, at: date)
    }
    public func practice(of group: Int, from start: Date, to end: Date) async throws(Failure) -> [MemberPractice] {
        try check()
        return try await base.practice(of: group, from: start, to: end)
    }
    public func addInvitation(to group: Int, key: String, at date: Date, expiresAt: Date) async throws(Failure) {
        try check()
        try await base.addInvitation(to: group, key: key, at: date, expiresAt: expiresAt)
    }
    public func revokeInvitation(_ id: Int, of group: Int) async throws(Failure) {
        try check()
        try await base.revokeInvitation(id, of: group)
    }
    public func invitation(key: String, at date: Date) async throws(Failure) -> GroupInvitationPreview? {
        try check()
        return try await base.invitation(key: key, at: date)
    }
    public func join(key: String, at date: Date) async throws(Failure) -> Int {
        try check()
        return try await base.join(key: key, at: date)
    }
    public func leave(_ group: Int) async throws(Failure) {
        try check()
        try await base.leave(group)
    }
    public func remove(_ member: Int, from group: Int, at date: Date) async throws(Failure) {
        try check()
        try await base.remove(member, from: group, at: date)
    }
    public func readmit(_ person: Int, to group: Int) async throws(Failure) {
        try check()
        try await base.readmit(person, to: group)
    }
    public func startSitting(profileName: String, sit: Int?, at date: Date, until: Date) async throws(Failure) -> [Int]
    {
        try check()
        return try await base.startSitting(profileName: profileName, sit: sit, at: date, until: until)
    }
    public func stopSitting() async throws(Failure) -> [Int] {
        try check()
        return try await base.stopSitting()
    }
    public func sittingNow(in group: Int, at date: Date) async throws(Failure) -> [SittingNow] {
        try check()
        return try await base.sittingNow(in: group, at: date)
    }
    public func page(_ id: Int, week: DateInterval, at date: Date) async throws(Failure) -> GroupPage? {
        try check()
        return try await base.page(id, week: week, at: date)
    }
    public func sitPage(_ sit: Int, of group: Int, at date: Date) async throws(Failure) -> GroupSitPage? {
        try check()
        return try await base.sitPage(sit, of: group, at: date)
    }
    public func scheduleSit(_ sit: GroupSit, at date: Date) async throws(Failure) -> GroupSit {
        try check()
        return try await base.scheduleSit(sit, at: date)
    }
    public func sits(of group: Int, at date: Date) async throws(Failure) -> [GroupSit] {
        try check()
        return try await base.sits(of: group, at: date)
    }
    public func sit(_ id: Int, of group: Int) async throws(Failure) -> GroupSit? {
        try check()
        return try await base.sit(id, of: group)
    }
    public func calendarSits(at date: Date) async throws(Failure) -> [CalendarSit] {
        try check()
        return try await base.calendarSits(at: date)
    }
    public func cancelSit(_ id: Int, of group: Int, at date: Date) async throws(Failure) {
        try check()
        try await base.cancelSit(id, of: group, at: date)
    }
}

extension Breakable: PeopleRepository where Base == any PeopleRepository, Failure == PeopleRepositoryError {
    public func create(
        _ person: Person, passwordHash: String, identity: ProviderIdentity?, admission: Admission, at date: Date
    ) async throws(Failure) -> Person {
        try check()
        return try await base.create(
            person, passwordHash: passwordHash, identity: identity, admission: admission, at: date)
    }
    public func credentials(identity: ProviderIdentity) async throws(Failure) -> (person: Person, passwordHash: String)?
    {
        try check()
        return try await base.credentials(identity: identity)
    }
    public func hasAnyone() async throws(Failure) -> Bool {
        try check()
        return try await base.hasAnyone()
    }
    public func overview(at date: Date, limit: Int, offset: Int) async throws(Failure) -> PeopleOverviewPage {
        try check()
        return try await base.overview(at: date, limit: limit, offset: offset)
    }
    public func setDisabled(_ disabled: Bool, of id: Int) async throws(Failure) {
        try check()
        try await base.setDisabled(disabled, of: id)
    }
    public func makeAdministrator(_ id: Int) async throws(Failure) {
        try check()
        try await base.makeAdministrator(id)
    }
    public func add(_ link: OneUseLink) async throws(Failure) {
        try check()
        try await base.add(link)
    }
    public func link(_ kind: OneUseLink.Kind, key: String, at date: Date) async throws(Failure) -> OneUseLink? {
        try check()
        return try await base.link(kind, key: key, at: date)
    }
    public func resetPassword(link key: String, passwordHash: String, at date: Date) async throws(Failure) -> Person? {
        try check()
        return try await base.resetPassword(link: key, passwordHash: passwordHash, at: date)
    }
    public func connect(_ identity: ProviderIdentity, to id: Int) async throws(Failure) {
        try check()
        try await base.connect(identity, to: id)
    }
    public func disconnect(issuer: String, from id: Int) async throws(Failure) {
        try check()
        try await base.disconnect(issuer: issuer, from: id)
    }
    public func connectedIssuers(of id: Int) async throws(Failure) -> Set<String> {
        try check()
        return try await base.connectedIssuers(of: id)
    }
    public func cookieSecret() async throws(Failure) -> [UInt8] {
        try check()
        return try await base.cookieSecret()
    }
    public func credentials(username: String) async throws(Failure) -> (person: Person, passwordHash: String)? {
        try check()
        return try await base.credentials(username: username)
    }
    public func credentials(id: Int) async throws(Failure) -> (person: Person, passwordHash: String)? {
        try check()
        return try await base.credentials(id: id)
    }
    public func update(_ person: Person) async throws(Failure) {
        try check()
        try await base.update(person)
    }
    public func setCalendarKey(_ key: String?, of id: Int) async throws(Failure) {
        try check()
        try await base.setCalendarKey(key, of: id)
    }
    public func person(calendarKey key: String) async throws(Failure) -> Person? {
        try check()
        return try await base.person(calendarKey: key)
    }
    public func setPasswordHash(_ hash: String, of id: Int, keepingSession key: String?) async throws(Failure) {
        try check()
        try await base.setPasswordHash(hash, of: id, keepingSession: key)
    }
    public func delete(id: Int) async throws(Failure) {
        try check()
        try await base.delete(id: id)
    }
    public func startSession(key: String, of id: Int, at date: Date, by method: SignInMethod) async throws(Failure) {
        try check()
        try await base.startSession(key: key, of: id, at: date, by: method)
    }
    public func endPasswordSessions() async throws(Failure) -> Int {
        try check()
        return try await base.endPasswordSessions()
    }
    public func person(session key: String, at date: Date) async throws(Failure) -> Person? {
        try check()
        return try await base.person(session: key, at: date)
    }
    public func endSession(key: String) async throws(Failure) {
        try check()
        try await base.endSession(key: key)
    }
    public func failures(of key: String, since date: Date) async throws(Failure) -> [Date] {
        try check()
        return try await base.failures(of: key, since: date)
    }
    public func countAttempt(of key: String, limit: Int, at date: Date) async throws(Failure) -> [Date] {
        try check()
        return try await base.countAttempt(of: key, limit: limit, at: date)
    }
    public func forgetAttempt(of key: String, at date: Date) async throws(Failure) {
        try check()
        try await base.forgetAttempt(of: key, at: date)
    }
    public func clearFailures(of key: String) async throws(Failure) {
        try check()
        try await base.clearFailures(of: key)
    }
}

/// Real personal data (`base`) whose parts a test can break one at a time, each by its own
/// `Fault`: the profiles, the sitting sessions, the groups, the storage's `ping`. The saved
/// friends lists and the group events are `base`'s own.
public struct BreakableData<Base: PersonalData>: PersonalData {
    public struct Faults: Sendable {
        public let profiles = Fault()
        public let sessions = Fault()
        public let groups = Fault()
        public let ping = Fault()
    }

    public let base: Base
    public let faults = Faults()

    public init(_ base: Base) {
        self.base = base
    }

    public func profiles(of person: Int) -> any ProfileRepository {
        Breakable(base.profiles(of: person), fault: faults.profiles)
    }

    public func sessions(of person: Int) -> any SittingSessionRepository {
        Breakable(base.sessions(of: person), fault: faults.sessions)
    }

    public func savedFriends(of person: Int) -> any FriendListStorage { base.savedFriends(of: person) }

    public func groups(of person: Int) -> any GroupRepository {
        Breakable(base.groups(of: person), fault: faults.groups)
    }

    public var groupEvents: any GroupEventBus { base.groupEvents }

    public func ping() async throws {
        try faults.ping.check(ProfileRepositoryError.self)
        try await base.ping()
    }
}
