import Foundation
import SanghaCore
import SanghaStore
import SanghaTestSupport
import Testing

@testable import SanghaViewModels
@testable import SanghaWeb

extension PseudoLanguageTests {
    /// What the group pages show that is not theirs to say: what people typed (names, usernames,
    /// the profile's name). Their dates and times are the language's too, so none is excused.
    static func groupSkipped(_ page: some Page) -> [String] {
        let html = String(buffer: page.compiledHTMLBuffer())
        let data = [
            "Morning group", "Ada Lovelace", "Bob Brown", "Kenji Sato", "Evening sit", "ada", "bob", "kenji",
        ]
        // The words the script says: a timeline row's, a section's, and the sitter's.
        let attributes =
            #"\s(?:data-confirm|data-says|data-section|data-sound-not-loaded|data-complete|data-saved|data-kept|"#
            + #"data-not-saved|data-time-left|data-begins-in|data-join-again|data-left-at|data-no-audio-together|"#
            + #"data-setting-clock|data-clock-failed|data-over)="([^"]*)""#
        let expression = try! NSRegularExpression(pattern: attributes)
        let confirms = expression.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]) }
        }
        return (texts(html) + confirms).compactMap { text in
            skippedNested(data.reduce(text) { $0.replacingOccurrences(of: $1, with: "") })
        }
    }

    static var groupContext: PageContext {
        var context = Self.context
        context.signIn(Person(id: 1, username: "ada", name: "Ada Lovelace", createdAt: context.now))
        context.timeZone = .gmt
        return context
    }

    static let groupProfile: Profile = {
        var profile = Profile.new(named: "Evening sit")
        profile.duration = 1800
        return profile
    }()

    static func groupDetail(isHost: Bool, alone: Bool = false) -> GroupDetail {
        let now = Self.context.now
        let members = [
            GroupMember(person: 1, name: "Ada Lovelace", username: "ada", isHost: isHost, joinedAt: now - 86_400),
            GroupMember(person: 2, name: "Bob Brown", username: "bob", isHost: !isHost, joinedAt: now - 3_600),
        ]
        return GroupDetail(
            group: SittingGroup(id: 1, name: "Morning group", createdAt: now - 86_400),
            members: alone ? [members[0]] : members,
            invitations: isHost ? [GroupInvitation(id: 7, createdAt: now - 600, expiresAt: now + 86_400)] : [],
            isHost: isHost,
            removed: isHost ? [RemovedMember(person: 3, name: "Kenji Sato", username: "kenji", removedAt: now)] : [])
    }

    @Test("The groups page says everything through the catalog: a list, none, a name refused, a failure")
    func groupsList() throws {
        let context = Self.groupContext
        let words = context.words
        let group = SittingGroup(id: 1, name: "Morning group", createdAt: context.now)
        let summaries = [
            GroupSummary(group: group, members: 1, isHost: true),
            GroupSummary(group: group, members: 3, isHost: false),
        ]
        let limit = SittingGroup.nameLengthLimit
        for problem in ["", String(repeating: "a", count: limit + 1), "a\u{7}", "a\u{202E}"] {
            let reason = try #require(SittingGroup.validateName(problem, words: words))
            #expect(Self.skipped(reason) == nil)
        }
        let pages = [
            GroupsViewModel(groups: summaries, context: context),
            GroupsViewModel(groups: [], context: context),
            GroupsViewModel(groups: summaries, context: context, name: "", nameError: words.groupsNameRequired),
            GroupsViewModel(
                groups: [], context: context, alert: GroupsViewModel.unavailable(CancellationError(), words: words)),
        ]
        for page in pages {
            #expect(Self.groupSkipped(page) == [])
        }
    }

    @Test("A group's page says everything through the catalog: for a host, a member, and alone")
    func groupPage() {
        let context = Self.groupContext
        let now = context.now
        let sits = [
            GroupSit(id: 3, group: 1, profile: Self.groupProfile, startsAt: now + 300, weekly: true),
            GroupSit(id: 4, group: 1, profile: Self.groupProfile, startsAt: now - 60, weekly: false),
        ]
        let sitting = [
            SittingNow(person: 2, name: "Bob Brown", profileName: "Evening sit", since: now - 60, sit: 4),
            SittingNow(person: 1, name: "Ada Lovelace", profileName: "", since: now, inAnotherGroupsSit: true),
        ]
        let practice = [MemberPractice(person: 1, totals: SittingTotals(sessions: 2, seconds: 4_200))]
        let words = context.words
        let pages = [
            GroupViewModel(
                detail: Self.groupDetail(isHost: true), practice: practice, sitting: sitting, sits: sits,
                profiles: [Self.groupProfile], context: context,
                link: OneTimeLinkViewModel(
                    heading: words.groupsInvitationLink, url: "https://sangha.example/groups/invite/x",
                    note: words.groupsInvitationLinkNote)),
            GroupViewModel(
                detail: Self.groupDetail(isHost: true), practice: practice, profiles: [Self.groupProfile],
                schedule: .init(profileError: words.groupsChooseProfile, startsAtError: words.groupsSitInPast),
                context: context),
            GroupViewModel(
                detail: Self.groupDetail(isHost: false), practice: [], sitting: sitting, sits: sits, context: context),
            GroupViewModel(detail: Self.groupDetail(isHost: true, alone: true), practice: [], context: context),
        ]
        for page in pages {
            #expect(Self.groupSkipped(page) == [])
        }
        for signUp in [SignUpMode.open, .adminInvite] {
            var other = context
            other.signUp = signUp
            let page = GroupViewModel(detail: Self.groupDetail(isHost: true), practice: [], context: other)
            #expect(Self.groupSkipped(page) == [])
        }
    }

    @Test("The live parts of a group's page and of a sit's page are rendered in the stream's language")
    func groupLiveParts() {
        let now = Self.context.now
        let words = Self.context.words
        let sit = GroupSit(id: 3, group: 1, profile: Self.groupProfile, startsAt: now - 60, weekly: false)
        let sitting = [SittingNow(person: 2, name: "Bob Brown", profileName: "Evening sit", since: now, sit: 3)]
        let renderer = PageRenderer.compiled(signer: TestDependencies.signer)
        let parts = [
            renderer.html(GroupSittingNowViewModel(group: 1, sitting: sitting, timeZone: .gmt, words: words)),
            renderer.html(GroupSittingNowViewModel(group: 1, sitting: [], timeZone: .gmt, words: words)),
            renderer.html(GroupSitsViewModel(sits: [sit], sitting: sitting, now: now, timeZone: .gmt, words: words)),
            renderer.html(GroupSitsViewModel(sits: [], sitting: [], now: now, timeZone: .gmt, words: words)),
            renderer.html(GroupSitPeopleViewModel(sit: sit, sitting: sitting, timeZone: .gmt, words: words)),
            renderer.html(GroupSitPeopleViewModel(sit: sit, sitting: [], timeZone: .gmt, words: words)),
        ]
        for html in parts {
            let texts = Self.texts(html).map {
                ["Bob Brown", "Evening sit"].reduce($0) { $0.replacingOccurrences(of: $1, with: "") }
            }
            #expect(texts.compactMap(Self.skipped) == [])
        }
    }

    @Test(
        "A group sit's page says everything through the catalog, its script's words too: ahead, under way, over, cancelled"
    )
    func groupSitPage() throws {
        let context = Self.groupContext
        let now = context.now
        let group = SittingGroup(id: 1, name: "Morning group", createdAt: now)
        let sitting = [SittingNow(person: 2, name: "Bob Brown", profileName: "Evening sit", since: now, sit: 3)]
        let sits = [
            GroupSit(id: 3, group: 1, profile: Self.groupProfile, startsAt: now + 300, weekly: true),
            GroupSit(id: 3, group: 1, profile: Self.groupProfile, startsAt: now - 60, weekly: false),
            GroupSit(id: 3, group: 1, profile: Self.groupProfile, startsAt: now - 86_400, weekly: false),
            GroupSit(id: 3, group: 1, profile: Self.groupProfile, startsAt: now - 60, weekly: false, cancelled: true),
        ]
        for sit in sits {
            for isHost in [true, false] {
                let page = GroupSitViewModel(
                    GroupSitPage(sit: sit, group: group, isHost: isHost, sitting: sitting), context: context,
                    alert: AlertViewModel(
                        title: context.words.groupsNotSaved, message: context.words.groupsSessionTooLong))
                #expect(Self.groupSkipped(page) == [])
                #expect(page.events.flatMap { [$0.text, $0.says] }.compactMap(Self.skippedNested) == [])
                if page.isAhead {
                    let html = String(buffer: page.compiledHTMLBuffer())
                    #expect(html.contains(#"data-begins-in="["#) && html.contains(#"data-left-at="["#))
                    #expect(html.contains("{time}"))
                }
            }
        }
        let script = try #require(
            GroupSitViewModel(GroupSitPage(sit: sits[0], group: group, isHost: false, sitting: []), context: context)
                .scriptWords)
        let lines = [
            script.soundNotLoaded, script.complete, script.saved, script.kept, script.notSaved, script.timeLeft,
            script.beginsIn, script.joinAgain, script.leftAt, script.noAudioTogether, script.settingClock,
            script.clockFailed, script.over,
        ]
        #expect(lines.compactMap(Self.skipped) == [])
        var english = context
        english.language = .en
        let page = GroupSitViewModel(
            GroupSitPage(sit: sits[0], group: group, isHost: false, sitting: []), context: english)
        #expect(page.scriptWords == nil)
        #expect(!String(buffer: page.compiledHTMLBuffer()).contains("data-begins-in"))
    }

    @Test("What the sitting page's script is told when it says a person sits is in their language")
    func sittingPresence() async throws {
        let data = try SQLitePersonalData.inMemory()
        let words = Self.context.words
        let inputs = [SittingPresence.Input(seconds: "600"), SittingPresence.Input(profile: "1", seconds: "0")]
        for input in inputs {
            let outcome = await SittingPresence.start(
                input, profiles: data.profiles(of: 1), groups: data.groups(of: 1), now: Self.context.now, words: words)
            guard case .invalid(let message) = outcome else {
                Issue.record("\(outcome) is not a refusal")
                continue
            }
            #expect(Self.skipped(message) == nil)
        }
    }

    @Test("An invitation link's page says everything through the catalog, to someone invited and to a member")
    func groupInvitation() {
        let group = SittingGroup(id: 1, name: "Morning group", createdAt: Self.context.now)
        for isMember in [false, true] {
            let page = GroupInvitationViewModel(
                preview: GroupInvitationPreview(group: group, isMember: isMember), token: "x",
                context: Self.groupContext)
            #expect(Self.groupSkipped(page) == [])
        }
    }

    @Test("The group actions' messages go through the catalog")
    func groupMessages() {
        let words = Self.context.words
        let texts = [
            words.groupsCreated, words.groupsLeft(name: ""), words.groupsLeftUnnamed,
            words.groupsMemberRemoved(name: ""),
            words.groupsMemberRemovedUnnamed, words.groupsReadmitted(name: ""), words.groupsReadmittedUnnamed,
            words.groupsRevoked, words.groupsNothingChanged, words.groupsScheduled, words.groupsNotScheduled,
            words.groupsTooManySits(50), words.groupsTooManyNotOver(100), words.groupsSitCancelledFlash,
            words.groupsNotCancelled, words.groupsWelcome, words.groupsDidNotJoin, words.groupsRemovedYou,
            words.groupsJoiningFailed, words.groupsInvalidLink, words.groupsSitTooFar,
            GroupSitAction.startsAtProblem(GroupSit.refusal(startsAt: .distantPast, now: .now) ?? "", words: words),
        ]
        #expect(texts.compactMap(Self.skipped) == [])
        #expect(GroupSitAction.tooManyNotOverMessage.hasPrefix("A group can have at most 100 sits that are not over"))
    }

    @Test("A group's page in German, and its live part in Arabic")
    func groupInGerman() {
        var context = Self.groupContext
        context.language = .de
        let page = GroupViewModel(
            detail: Self.groupDetail(isHost: true), practice: [], profiles: [Self.groupProfile], context: context)
        let html = String(buffer: page.compiledHTMLBuffer())
        #expect(html.contains("Gruppensitzung planen"))
        #expect(html.contains("Seit Montag hat noch niemand meditiert."))
        #expect(html.contains("Einladungslink erstellen"))
        let part = PageRenderer.compiled(signer: TestDependencies.signer).html(
            GroupSittingNowViewModel(group: 1, sitting: [], timeZone: .gmt, words: Words(.ar)))
        #expect(part.contains("لا أحد يتأمل الآن."))
    }
}
