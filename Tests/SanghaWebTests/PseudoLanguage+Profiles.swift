import Foundation
import SanghaCore
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// The profiles pages, the profile editor, the sitting page and the home page say everything
/// through the catalog, in each of their states; and a page in German or Arabic says it in
/// that language.
extension PseudoLanguageTests {
    /// Warm Up on with every sound (a repeating one of three strokes), Cool Down on with none.
    /// Named without letters: a person's name stays as it is in every language.
    static var fullProfile: Profile {
        var profile = Profile.new(named: "☸ 1")
        (profile.id, profile.version, profile.duration) = (1, 3, 1200)
        profile[.warmUp].enabled = true
        profile[.warmUp].duration = 180
        for sound in SoundType.allCases { profile[.warmUp][sound: sound].enabled = true }
        profile[.warmUp][sound: .repeat].interval = 60
        profile[.warmUp][sound: .repeat].iterations = 3
        profile[.warmUp][sound: .end].name = "Wood Block"
        profile[.coolDown].enabled = true
        return profile
    }

    static var profilesContext: PageContext {
        var context = Self.context
        context.signIn(Person(id: 1, username: "ada", name: "☸", createdAt: context.now))
        return context
    }

    /// What still says English on these pages, and is another area's: the paging's words
    /// (Layout) and the time sat today (`DurationFormatter.words`, Formatters).
    static let othersAreas = ["Previous", "Next", "Pages", "Page 2 of 2"]

    /// The letters of `text` outside brackets, brackets inside brackets too (a placeholder's
    /// pseudo-text inside a message's: "[[Ŵàŕm Ûp] bégîñš]").
    static func skippedNested(_ text: String) -> String? {
        var rest = text
        while let range = rest.range(of: #"\[[^\[\]]*\]"#, options: .regularExpression) {
            rest.replaceSubrange(range, with: "")
        }
        for name in untranslated { rest = rest.replacingOccurrences(of: name, with: "") }
        rest = rest.trimmingCharacters(in: .whitespacesAndNewlines)
        return rest.contains(where: \.isLetter) && !othersAreas.contains(rest) ? rest : nil
    }

    static func skippedNested(_ page: some Page) -> [String] {
        texts(String(buffer: page.compiledHTMLBuffer())).compactMap(skippedNested)
    }

    @Test("The profile editor says everything through the catalog: new, full, unnamed, invalid and not saved")
    func profileEditor() {
        let context = Self.profilesContext
        let words = context.words
        var unnamed = Profile.new(named: "")
        unnamed.id = 4
        let input = ProfileFormInput(
            version: 3,
            [
                .name: "", .duration(.main): "7 minutes", .enabled(.warmUp): "on", .duration(.warmUp): "02:00",
                .soundEnabled(.warmUp, .begin): "on", .soundName(.warmUp, .begin): "Rattle",
                .soundEnabled(.warmUp, .repeat): "on", .soundName(.warmUp, .repeat): "Bowl",
                .interval(.warmUp): "05:00", .iterations(.warmUp): "x",
            ])
        let (invalid, errors) = input.applied(to: Self.fullProfile, words: words)
        #expect(errors.count >= 4)
        var tooLong = Self.fullProfile
        (tooLong.name, tooLong.duration) = (String(repeating: "☸", count: 61), 0)
        tooLong[.warmUp][sound: .repeat].iterations = 11
        tooLong[.warmUp][sound: .repeat].interval = 500
        let broken = tooLong.validationErrors(words: words)
        #expect(broken.count == 4)
        let pages = [
            ProfileEditorViewModel(profile: Profile.new(named: "☸ 2"), context: context),
            ProfileEditorViewModel(profile: Self.fullProfile, context: context),
            ProfileEditorViewModel(profile: unnamed, context: context),
            ProfileEditorViewModel(profile: invalid, context: context, input: input, errors: errors),
            ProfileEditorViewModel(profile: tooLong, context: context, errors: broken),
            ProfileEditorViewModel(
                profile: Self.fullProfile, context: context,
                alert: AlertViewModel(title: words.profilesNotSaved, message: words.profilesConflict)),
        ]
        for page in pages {
            #expect(Self.skippedNested(page) == [])
        }
        for message in Array(errors.values) + Array(broken.values) {
            #expect(Self.skippedNested(message) == nil)
        }
        for name in ["\u{7}", "a\u{202E}b"] {
            #expect(Profile.validateName(name, words: words).flatMap(Self.skippedNested) == nil)
        }
    }

    @Test("The profiles list says everything through the catalog: rows, none, a name refused, unreadable, page 2")
    func profilesList() {
        let context = Self.profilesContext
        let words = context.words
        let profiles = [Self.fullProfile, Profile.new(named: "☸ 2")]
        let pages = [
            ProfilesListViewModel(profiles: profiles, context: context),
            ProfilesListViewModel(profiles: [], context: context),
            ProfilesListViewModel(
                profiles: profiles, context: context, name: " ", nameError: words.profilesNameRequired),
            ProfilesListViewModel(profiles: nil, context: context),
            ProfilesListViewModel(profiles: profiles, total: 53, page: 2, context: context),
        ]
        for page in pages {
            #expect(Self.skippedNested(page) == [])
        }
        #expect(pages[4].layout.title.contains("2"))
    }

    @Test("The sitting page says everything through the catalog, its script's words and a refused session too")
    func sitting() throws {
        let context = Self.profilesContext
        let words = context.words
        let pages = [
            SittingViewModel(profile: Self.fullProfile, context: context),
            SittingViewModel(profile: Profile.new(named: ""), context: context),
            SittingViewModel(
                profile: Self.fullProfile, context: context,
                alert: AlertViewModel(title: words.sittingNotSaved, message: words.sittingTooOld)),
        ]
        for page in pages {
            #expect(Self.skippedNested(page) == [])
            let says = page.events.map(\.says) + page.events.map(\.text)
            #expect(says.compactMap(Self.skippedNested) == [])
            let script = try #require(page.scriptWords)
            let lines = [
                script.soundNotLoaded, script.complete, script.startAgain, script.saved, script.kept, script.notSaved,
                script.timeSat, script.timeLeft, script.noAudio, script.pausedAt, script.resumed, script.satFor,
                script.stoppedAt,
            ]
            #expect(lines.compactMap(Self.skippedNested) == [])
        }
        let html = String(buffer: pages[0].compiledHTMLBuffer())
        #expect(html.contains(#"data-paused-at="["#) && html.contains("{time}"))
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        let refusals = [
            SittingSession(profileID: 1, profileName: "x", startedAt: start, seconds: 0, completed: true),
            SittingSession(profileID: 1, profileName: "x", startedAt: start, seconds: 30, completed: false),
            SittingSession(
                profileID: 1, profileName: "x", startedAt: start.addingTimeInterval(3600), seconds: 60, completed: true),
            SittingSession(
                profileID: 1, profileName: "x", startedAt: start.addingTimeInterval(-40 * 86_400), seconds: 60,
                completed: true),
        ].map { $0.refusal(now: start, words: words) }
        #expect(refusals.allSatisfy { $0 != nil })
        #expect(refusals.compactMap { $0.flatMap(Self.skippedNested) } == [])
    }

    @Test("The home page says everything through the catalog: full, empty, and its panels failing")
    func home() {
        let context = Self.profilesContext
        let words = context.words
        let profiles = (1...7).map { number -> Profile in
            var profile = Profile.new(named: "☸ \(number)")
            profile.id = number
            return profile
        }
        let friends = (1...6).map {
            Friend(id: $0, firstname: "Jane", lastname: "Doe \($0)", phonenumber: "+49 30 1234\($0)")
        }
        let session = SittingSession(
            profileID: 1, profileName: "☸ 3", startedAt: context.now, seconds: 1200, completed: true)
        let practice = Practice(
            totals: SittingTotals(sessions: 4, seconds: 4800), today: context.today,
            sat: [Practice.Day(context.today, sessions: 1, seconds: 1200)], streak: 3, recent: [session])
        let empty = Practice(totals: .zero, today: context.today, sat: [], streak: 0)
        let pages = [
            HomeViewModel(
                profiles: ProfilesPanelViewModel(profiles: profiles, words: words),
                friends: FriendsPanelViewModel(friends: friends, words: words),
                practice: PracticePanelViewModel(practice: practice, words: words), context: context),
            HomeViewModel(
                profiles: ProfilesPanelViewModel(profiles: [], words: words),
                friends: FriendsPanelViewModel(friends: [], words: words),
                practice: PracticePanelViewModel(practice: empty, words: words), context: context),
            HomeViewModel(
                profiles: ProfilesPanelViewModel(profiles: nil, words: words),
                friends: FriendsPanelViewModel(friends: Array(friends.prefix(2)), words: words),
                practice: PracticePanelViewModel(practice: nil, words: words), context: context),
        ]
        for page in pages {
            let skipped = Self.skippedNested(page).filter { !$0.hasPrefix("Jane") }
            #expect(skipped == [])
            #expect(page.outboxForms?.contains(#""one":"#) == true)
        }
        #expect(pages[0].practice.sitLink?.label.contains("☸ 3") == true)
    }

    @Test("The profile editor, the sitting page and the home page in German and Arabic")
    func germanAndArabic() {
        var context = Self.profilesContext
        context.language = .de
        let editor = String(
            buffer: ProfileEditorViewModel(profile: Self.fullProfile, context: context).compiledHTMLBuffer())
        #expect(editor.contains("<h2 id=\"section-warmUp\">Einstimmung</h2>"))
        #expect(editor.contains("<p class=\"total\">Gesamte Sitzung <strong>28:00</strong></p>"))
        #expect(editor.contains(">Klangschale</option>"))
        let home = HomeViewModel(
            profiles: ProfilesPanelViewModel(profiles: [], words: context.words),
            friends: FriendsPanelViewModel(friends: [], words: context.words),
            practice: PracticePanelViewModel(practice: nil, words: context.words), context: context)
        let homeHTML = String(buffer: home.compiledHTMLBuffer())
        #expect(homeHTML.contains("Noch keine Profile."))
        #expect(
            homeHTML.contains("data-outbox-forms="))

        context.language = .ar
        let sitting = SittingViewModel(profile: Self.fullProfile, context: context)
        let html = String(buffer: sitting.compiledHTMLBuffer())
        #expect(html.contains(#"<html lang="ar" dir="rtl">"#))
        #expect(html.contains("بداية التهيئة"))
        // (The strokes as Arabic writes numbers; the times stay digits.)
        #expect(html.contains("الجرس: "))
        #expect(html.contains(" ضربات، كل 01:00 من 01:00 إلى 03:00"))
        #expect(html.contains(#"data-stopped-at="توقفت الجلسة عند {time}.""#))
        // The profile's name set apart (U+2068 … U+2069): `<title>` takes no markup.
        #expect(sitting.layout.title == "جلسة تأمل: \u{2068}☸ 1\u{2069}")
    }

    @Test("English keeps the script's own words: no words for it on the page")
    func englishScript() {
        var context = Self.profilesContext
        context.language = .en
        #expect(SittingViewModel(profile: Self.fullProfile, context: context).scriptWords == nil)
        #expect(
            HomeViewModel(
                profiles: ProfilesPanelViewModel(profiles: [], words: .english),
                friends: FriendsPanelViewModel(friends: [], words: .english),
                practice: PracticePanelViewModel(practice: nil, words: .english), context: context
            ).outboxForms == nil)
    }
}
