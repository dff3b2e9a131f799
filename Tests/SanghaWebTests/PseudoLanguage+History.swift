import Foundation
import Hummingbird
import SanghaCore
import SanghaTestSupport
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// The history's pages in the pseudo-language, each in its states: the history (empty, with
/// sessions, its chart and year's calendar, "Add a sit" with every field's message, an alert),
/// a sit's edit page, and the import page (before a preview, a preview, its problems, each
/// refusal); and their flash messages. A date or time is written by the page's language
/// (`CalendarText`), which in the pseudo-language brackets the English form: inside a message it
/// stands in brackets within brackets, taken out innermost first.
extension PseudoLanguageTests {
    static let historyNow = Date(timeIntervalSince1970: 1_795_000_000)

    /// What the tests' person typed, which stays as it is: their name, a profile's, a note's.
    static let historyData: Set<String> = ["Ada", "Morning", "Calm"]

    /// A page's texts with letters outside brackets, nested brackets taken out innermost first;
    /// what was typed (`historyData`, `typed`) left aside.
    static func historySkipped(_ page: some Page, typed: [String] = []) -> [String] {
        texts(String(buffer: page.compiledHTMLBuffer())).filter { text in
            let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return !historyData.contains(text) && !typed.contains(text)
        }.compactMap(historySkipped)
    }

    static func historySkipped(_ text: String) -> String? {
        var rest = text
        while true {
            let inner = rest.replacingOccurrences(of: #"\[[^\[\]]*\]"#, with: "", options: .regularExpression)
            if inner == rest { break }
            rest = inner
        }
        return skipped(rest)
    }

    static func historySessions() -> [SittingSession] {
        (0..<12).map { index in
            SittingSession(
                id: index + 1, profileID: index % 3 == 0 ? nil : 1, profileName: "Morning",
                startedAt: historyNow.addingTimeInterval(-Double(index) * 86_400 * 9 - 3600),
                seconds: [45, 600, 1500, 3725, 7200][index % 5], completed: index % 2 == 0,
                groupName: index % 4 == 1 ? "Evening Sangha" : nil, note: index % 5 == 2 ? "Calm" : nil)
        }
    }

    /// Ada's sessions on the app's own SQLite store in memory (her Morning profile with them),
    /// her days counted as `context`'s.
    static func historyStore(_ sessions: [SittingSession] = [], context: PageContext) async throws
        -> any SittingSessionRepository
    {
        try await StoredPerson.make(
            clock: context.dayClock, profiles: [Profile.new(named: "Morning")], sessions: sessions
        ).sessions
    }

    /// A sessions store on a broken disk.
    static func historyBroken() async throws -> any SittingSessionRepository {
        Breakable(try await StoredPerson.make().sessions, fault: Fault(.storage))
    }

    static func historyPage(
        _ sessions: [SittingSession], context: PageContext, entry: SessionFormViewModel.Form = .init()
    )
        async throws -> HistoryViewModel
    {
        let repository = try await historyStore(sessions, context: context)
        guard
            case .page(let page) = await HistoryViewModel.load(
                page: 1, from: repository, context: context, entry: entry)
        else { throw CancellationError() }
        return page
    }

    static var historyContext: PageContext {
        var context = Self.context
        context.now = historyNow
        context.signIn(Person(id: 1, username: "ada", name: "Ada", createdAt: historyNow))
        context.language = .pseudo
        return context
    }

    @Test("The history says everything through the catalog: empty, with sessions, and with an alert")
    func history() async throws {
        let context = Self.historyContext
        let empty = try await Self.historyPage([], context: context)
        let full = try await Self.historyPage(Self.historySessions(), context: context)
        #expect(full.chart != nil && full.year != nil && full.hasRows && full.streakText != nil)
        #expect(full.rows.contains { $0.groupText != nil } && full.rows.contains { $0.note != nil })
        let typed = SessionFormViewModel.Form(date: "2026-11-10", startTime: "07:00", duration: "20", what: "Morning")
        let broken = try await Self.historyBroken()
        guard
            case .failed(let alert, _) = await SessionEntry.add(typed, sessions: broken, context: context)
        else {
            Issue.record("expected the history with its alert")
            return
        }
        #expect(alert.alert != nil)
        for page in [empty, full, alert] {
            #expect(Self.historySkipped(page) == [])
        }
        // Every month of the year's calendar and every day of the chart is in words.
        let year = try #require(full.year)
        #expect(!year.months.isEmpty && year.monthLabels.count >= 11 && year.weekdayLabels.count == 3)
        #expect((year.months + year.shades.map(\.text) + [year.caption]).compactMap(Self.historySkipped) == [])
        // The script's line of sits waiting on the device: the page's words, by plural category.
        let forms = try JSONDecoder().decode([String: String].self, from: Data(try #require(full.outboxForms).utf8))
        #expect(forms.keys.sorted() == ["one", "other"])
        #expect(forms.values.allSatisfy { $0.contains("{count}") })
        #expect(forms.values.compactMap(Self.historySkipped) == [])
    }

    @Test("\"Add a sit\" and a sit's edit page say every field's message through the catalog")
    func sessionForms() async throws {
        let context = Self.historyContext
        let repository = try await Self.historyStore(Self.historySessions(), context: context)
        let forms = [
            SessionFormViewModel.Form(),
            SessionFormViewModel.Form(date: "2026-11-40", startTime: "7", duration: "x", what: "", note: "a\u{7}"),
            SessionFormViewModel.Form(
                date: "2030-01-01", startTime: "07:00", duration: "99:00:00", what: String(repeating: "w", count: 200),
                note: "\u{202E}"),
            SessionFormViewModel.Form(
                date: "2026-11-20", startTime: "", duration: "0", what: "a\u{7}",
                note: String(repeating: "n", count: SittingSession.noteLengthLimit + 1)),
            SessionFormViewModel.Form(date: "2026-11-20", startTime: "25:99", duration: "10", what: "a\u{202E}"),
        ]
        var messages: [String] = []
        for form in forms {
            guard case .invalid(let page) = await SessionEntry.add(form, sessions: repository, context: context) else {
                Issue.record("expected the form again for \(form)")
                continue
            }
            let entry = try #require(page.entry)
            messages += [entry.date, entry.startTime, entry.duration, entry.what, entry.note].compactMap(\.error)
            #expect(Self.historySkipped(page, typed: [form.note]) == [])
            guard
                case .invalid(let edit) = await SessionEntry.save(1, form: form, sessions: repository, context: context)
            else {
                Issue.record("expected the edit page again for \(form)")
                continue
            }
            #expect(Self.historySkipped(edit, typed: [form.note]) == [])
        }
        // Each rule's message came up.
        #expect(Set(messages).count >= 12)
        guard case .page(let edit) = await SessionEntry.edit(1, sessions: repository, context: context) else {
            Issue.record("expected the edit page")
            return
        }
        #expect(Self.historySkipped(edit) == [])
        let failing = try await Self.historyBroken()
        guard
            case .failed(let saving, _) = await SessionEntry.save(1, form: .init(), sessions: failing, context: context)
        else {
            Issue.record("expected the edit page with its alert")
            return
        }
        #expect(Self.historySkipped(saving) == [])
    }

    @Test("The history's flash messages come from the catalog")
    func historyFlashes() async throws {
        let context = Self.historyContext
        let words = context.words
        let repository = try await Self.historyStore(Self.historySessions(), context: context)
        let typed = SessionFormViewModel.Form(date: "2026-11-10", startTime: "07:00", duration: "20", what: "Morning")
        var flashes: [FlashViewModel?] = []
        if case .redirect(let redirect) = await SessionEntry.add(typed, sessions: repository, context: context) {
            flashes.append(redirect.flash)
        }
        if case .redirect(let redirect) = await SessionEntry.save(
            2, form: typed, sessions: repository, context: context)
        {
            flashes.append(redirect.flash)
        }
        if case .redirect(let redirect) = await SessionEntry.delete(2, sessions: repository, words: words) {
            flashes.append(redirect.flash)
        }
        let broken = try await Self.historyBroken()
        if case .refused(let redirect) = await SessionEntry.delete(2, sessions: broken, words: words) {
            flashes.append(redirect.flash)
        }
        #expect(flashes.count == 4)
        let texts = flashes.compactMap { $0 }.flatMap { [$0.message, $0.errorTitle ?? ""] }
        #expect(texts.compactMap(Self.historySkipped) == [])
    }

    @Test("The import page says everything through the catalog, each of a file's problems too")
    func practiceLogImport() async throws {
        let context = Self.historyContext
        let words = context.words
        let repository = try await Self.historyStore(context: context)
        let csv = PracticeLogExport.csvHeader + PracticeLogExport.csvLine(Self.historySessions()[0], timeZone: .gmt)
        var pages: [PracticeLogImportViewModel] = [PracticeLogImportViewModel(context: context)]
        for file in [nil, Data([0xFF, 0xFE, 0xFD]), Data(csv.utf8)] {
            switch await PracticeLogImportViewModel.preview(
                file: file, token: "t", key: "k", sessions: repository, context: context)
            {
            case .preview(let page), .invalid(let page): pages.append(page)
            default: Issue.record("expected a page for \(String(describing: file))")
            }
        }
        #expect(pages.last?.token == "t" && pages.last?.summary != nil)
        if case .expired(let page) = await PracticeLogImportViewModel.commit(
            key: "none", sessions: repository, context: context)
        {
            pages.append(page)
        }
        let broken = try await Self.historyBroken()
        if case .failed(let page) = await PracticeLogImportViewModel.preview(
            file: Data(csv.utf8), token: "t", key: "k", sessions: broken, context: context)
        {
            pages.append(page)
        }
        #expect(pages.count == 6)
        for page in pages {
            #expect(Self.historySkipped(page) == [])
        }
        // A file with more problems than are listed, each kind of problem among them: its
        // summary, "…and N more" and each line's problem are the catalog's.
        let lines = [
            "x", "not a date,60,Evening,completed,,", "2026-11-10T06:30:00Z,0,Evening,completed,,",
            "2026-11-10T06:30:00Z,60,,completed,,", "2026-11-10T06:30:00Z,60,Evening,done,,",
            "2099-11-24T06:30:00Z,60,Evening,completed,,", "2026-11-10T06:30:00Z,60,Evening,completed,a\u{7},",
            "2026-11-10T06:30:00Z,60,Evening,completed,,\(String(repeating: "n", count: 1001))",
            "\"Evening\"x,60,Evening,completed,,",
        ]
        let bad =
            PracticeLogExport.csvHeader + (lines + Array(repeating: "x", count: 15)).joined(separator: "\n")
            + "\n\"open"
        /// The page that lists `file`'s problems, or nil (recorded) when the preview did not refuse it.
        func refused(_ file: String) async -> PracticeLogImportViewModel? {
            guard
                case .invalid(let page) = await PracticeLogImportViewModel.preview(
                    file: Data(file.utf8), token: "t", key: "k", sessions: repository, context: context)
            else {
                Issue.record("expected the problems of \(file.prefix(40))")
                return nil
            }
            return page
        }
        guard let problems = await refused(bad) else { return }
        #expect(problems.moreProblems != nil)
        #expect(problems.problems.count == PracticeLogImportViewModel.shownProblems)
        #expect(Self.historySkipped(problems) == [])
        // A file that is neither: its header's problem; JSON that is not the export; an entry's.
        let others = [
            "date,seconds\n", "[oops",
            #"[{"startedAt":"2026-11-10T06:30:00Z","seconds":0,"profile":"Evening","outcome":"completed"}]"#,
        ]
        for file in others {
            guard let page = await refused(file) else { continue }
            #expect(page.problems.count == 1, "\(file)")
            #expect(Self.historySkipped(page) == [], "\(file)")
        }
        // In German, as the reader wrote it for English with German words.
        var german = context
        german.language = .de
        let read = PracticeLogImport.read(bad, now: context.now, words: german.words)
        #expect(
            read.problems.first
                == german.words.historyImportLine(
                    line: "2", problem: german.words.historyImportFieldCount(expected: "6", found: "1")))
        #expect(read.problems.first?.hasPrefix("Zeile 2: ") == true)
        #expect(
            [problems.summary ?? "", problems.moreProblems ?? "", words.historyImported(sessions: "1")]
                .compactMap(Self.historySkipped) == [])
    }

    @Test("The history in German and Arabic: its words, dates, numbers and months in the language")
    func historyTranslated() async throws {
        var context = Self.historyContext
        context.language = .de
        let german = try await Self.historyPage(Self.historySessions(), context: context)
        let html = String(buffer: german.compiledHTMLBuffer())
        #expect(html.contains("<h1>Verlauf</h1>"))
        #expect(html.contains("Letzte Sitzungen"))
        #expect(html.contains("Die letzten 30 Tage: "))
        #expect(german.entry?.heading == "Sitzung eintragen")
        #expect(german.year?.weekdayLabels.map(\.text) == ["Mo", "Mi", "Fr"])
        #expect(DurationFormatter.words(from: 3725, words: context.words) == "1 Std. 2 Min.")
        #expect(CalendarText.monthAndYear(month: 11, year: 2026, words: context.words) == "November 2026")

        context.language = .ar
        let arabic = try await Self.historyPage(Self.historySessions(), context: context)
        let arabicHTML = String(buffer: arabic.compiledHTMLBuffer())
        #expect(arabicHTML.contains(#"<html lang="ar" dir="rtl">"#))
        #expect(arabicHTML.contains("<h1>السجل</h1>"))
        #expect(Words(.ar).historyDays(2) == "يومان")
        #expect(Words(.ar).historyDays(11).hasSuffix("يومًا"))
        #expect(Words(.pl).historySessionCount(3).hasSuffix("sesje"))
        #expect(Words(.pl).historySessionCount(5).hasSuffix("sesji"))
        let polish = try JSONDecoder().decode(
            [String: String].self, from: Data(try #require(HistoryViewModel.outboxForms(Words(.pl))).utf8))
        #expect(polish["few"] == "{count} sesje na tym urządzeniu czekają na wysłanie.")
        #expect(polish["many"] == "{count} sesji na tym urządzeniu czeka na wysłanie.")
        #expect(HistoryViewModel.outboxForms(.english) == nil)
    }

    @Test("A calendar feed speaks its owner's language, English when they chose none")
    func calendarFeed() {
        let sit = CalendarSit(
            sit: GroupSit(
                id: 3, group: 2, profile: Profile.new(named: "Dawn"), startsAt: Self.historyNow + 86_400, weekly: false),
            groupName: "Morning Sangha")
        var person = Person(id: 1, username: "ada", name: "Ada", createdAt: Self.historyNow)
        person.reminderMinutes = 420
        let site = "https://sangha.example"
        let english = CalendarFeed.ics(for: person, sits: [sit], site: site, now: Self.historyNow)
        #expect(english.contains("DESCRIPTION:Morning Sangha sits together: "))
        #expect(english.contains("SUMMARY:Time to sit\r\n"))
        person.language = .de
        let german = CalendarFeed.ics(for: person, sits: [sit], site: site, now: Self.historyNow)
        // A Latin name in a German sentence needs no isolates: none reach the calendar's text.
        #expect(german.contains("DESCRIPTION:Gruppensitzung – Morning Sangha\\, Dauer: "))
        #expect(german.contains("SUMMARY:Zeit zum Meditieren\r\n"))
        #expect(!german.contains("\u{2068}"))
        let file = CalendarFeed.ics(for: sit, site: site, words: Words(.fr))
        #expect(file.contains("DESCRIPTION:Séance de groupe – Morning Sangha"))
        // In Arabic it is set apart, as plain text sets it apart (U+2068 … U+2069).
        let arabic = CalendarFeed.ics(for: sit, site: site, words: Words(.ar))
        #expect(arabic.contains("\u{2068}Morning Sangha\u{2069}"))
    }
}
