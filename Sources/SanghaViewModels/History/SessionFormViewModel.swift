import Foundation
import SanghaCore

/// "Add a sit" on `/history`, and a session's "Edit sit" page (`/history/sessions/{id}`): a sit
/// kept in the log by hand, for one on a cushion with no screen, or to correct one the timer
/// recorded. Date and start time are in the time zone the pages show.
public struct SessionFormViewModel: Sendable, Equatable, Encodable {
    public let heading: String
    public let actionURL: String
    public let submitLabel: String
    public let date: FormFieldViewModel
    public let startTime: FormFieldViewModel
    public let duration: FormFieldViewModel
    public let what: FormFieldViewModel
    public let note: FormFieldViewModel
    /// Where "Cancel" leads, on the edit page; nil on the history page.
    public let cancelURL: String?
    /// "Cancel".
    public let cancelLabel: String

    /// The JSON keeps the fields it had before the page spoke every language: the page's own
    /// words (its headings and labels) are its HTML's.
    private enum CodingKeys: String, CodingKey {
        case heading, actionURL, submitLabel, date, startTime, duration, what, note, cancelURL
    }

    /// The form as typed, and each field's message.
    public struct Form: Sendable, Equatable {
        public var date = ""
        public var startTime = ""
        public var duration = ""
        public var what = ""
        public var note = ""
        public var errors: [Field: String] = [:]

        public init(
            date: String = "", startTime: String = "", duration: String = "", what: String = "", note: String = ""
        ) {
            (self.date, self.startTime, self.duration, self.what, self.note) = (date, startTime, duration, what, note)
        }

        /// The session's values, as the form shows them in `timeZone`.
        public init(_ session: SittingSession, timeZone: TimeZone) {
            date = session.startedAt.formatted(Date.ISO8601FormatStyle(timeZone: timeZone).year().month().day())
            startTime = CalendarText.time(session.startedAt, timeZone: timeZone)
            duration = DurationFormatter.string(from: session.seconds)
            what = session.profileName
            note = session.note ?? ""
        }
    }

    public enum Field: Sendable, Hashable {
        case date, startTime, duration, what, note
    }

    init(form: Form, editing id: Int?, words: Words) {
        heading = id == nil ? words.historyAddASit : words.historyEditSit
        actionURL = id.map(Paths.historySession.url) ?? Paths.historySessions.url
        submitLabel = id == nil ? words.historyAddSit : words.historySave
        cancelURL = id == nil ? nil : Paths.history.url
        cancelLabel = words.historyCancel
        let errors = form.errors
        date = FormFieldViewModel(
            names: FieldNames(name: "date"), label: words.historyDate, value: form.date, error: errors[.date],
            hint: words.historyDateHint, maxLength: 10)
        startTime = FormFieldViewModel(
            names: FieldNames(name: "startTime"), label: words.historyStartTime, value: form.startTime,
            error: errors[.startTime], hint: words.historyTimeHint, maxLength: 5)
        duration = FormFieldViewModel(
            names: FieldNames(name: "duration"), label: words.historyDuration, value: form.duration,
            error: errors[.duration], hint: words.historyDurationHint, maxLength: 8)
        what = FormFieldViewModel(
            names: FieldNames(name: "what"), label: words.historyWhat, value: form.what, error: errors[.what],
            hint: words.historyWhatHint, maxLength: Profile.nameLengthLimit)
        note = FormFieldViewModel(
            names: FieldNames(name: "note"), label: words.historyNote, value: form.note, error: errors[.note],
            maxLength: SittingSession.noteLengthLimit, isRequired: false, lines: 3)
    }

    /// The session the form describes, as `session` (kept for what the form does not show:
    /// its id, profile, group, whether it ran to the end), or the form with a message by each
    /// field that breaks a rule. A sit typed in begins no later than now, lasts from a second to
    /// 24 hours, and has a name.
    static func session(from form: Form, replacing session: SittingSession, context: PageContext) -> Reading {
        var form = form
        var errors: [Field: String] = [:]
        let words = context.words
        // What the form showed of the session and was sent back unchanged keeps its stored value:
        // the start to the second (the form shows minutes), a sit over 24 hours (the timer's).
        let shown = session.id == 0 ? nil : Form(session, timeZone: context.timeZone)
        let sameStart = shown.map { $0.date == form.date && $0.startTime == form.startTime } ?? false
        let sameLength = shown.map { $0.duration == form.duration } ?? false
        let date = form.date.trimmingCharacters(in: .whitespaces)
        let time = form.startTime.trimmingCharacters(in: .whitespaces)
        var startedAt: Date?
        if date.isEmpty {
            errors[.date] = words.historyDateRequired
        } else if time.isEmpty {
            errors[.startTime] = words.historyStartTimeRequired
        } else if sameStart {
            startedAt = session.startedAt
        } else if let start = LocalDateTime.date(from: "\(date)T\(time)", timeZone: context.timeZone), time.count == 5 {
            startedAt = start
            if start > context.now { errors[.date] = words.historyInFuture }
        } else if LocalDateTime.date(from: "\(date)T00:00", timeZone: context.timeZone) == nil {
            errors[.date] = words.historyDateFormat
        } else {
            errors[.startTime] = words.historyTimeFormat
        }
        let seconds = sameLength ? session.seconds : DurationFormatter.seconds(from: form.duration)
        if sameLength {
            // As stored.
        } else if form.duration.trimmingCharacters(in: .whitespaces).isEmpty {
            errors[.duration] = words.historyDurationRequired
        } else if let seconds {
            if !(1...SittingSession.longestEntry).contains(seconds) {
                errors[.duration] = words.historyDurationRange
            }
        } else {
            errors[.duration] = words.historyDurationFormat
        }
        let what = form.what.trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = NameProblem(what, limit: Profile.nameLengthLimit) {
            errors[.what] = Self.whatProblem(problem, words: words)
        }
        let note = form.note.trimmingCharacters(in: .whitespacesAndNewlines)
        if let problem = SittingSession.noteRefusal(note, words: words) { errors[.note] = problem }
        guard errors.isEmpty, let startedAt, let seconds else {
            form.errors = errors
            return .invalid(form)
        }
        var result = session
        if result.profileName != what { result.profileID = nil }
        result.profileName = what
        result.startedAt = startedAt
        result.seconds = seconds
        result.note = note.isEmpty ? nil : note
        return .session(result)
    }

    /// What is wrong with "What", a profile's name or any name, in the language of `words`.
    static func whatProblem(_ problem: NameProblem, words: Words) -> String {
        switch problem {
        case .required: words.historyWhatRequired
        case .tooLong(let limit): words.historyWhatTooLong(limit: words.number(limit))
        case .control: words.historyWhatControl
        case .direction: words.historyWhatDirection
        }
    }

    /// What a form reads as: a session, or the form with its messages.
    enum Reading {
        case session(SittingSession)
        case invalid(Form)
    }
}

/// The edit page of one session.
public struct SessionEditViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let form: SessionFormViewModel
    public let deleteURL: String
    public let deleteLabel: String
    public let deleteConfirmation: String
    public let alert: AlertViewModel?

    public init(id: Int, form: SessionFormViewModel.Form, context: PageContext, alert: AlertViewModel? = nil) {
        let words = context.words
        layout = LayoutViewModel(title: words.historyEditSit, section: .history, context: context)
        (deleteLabel, deleteConfirmation) = (words.historyDelete, words.historyDeleteConfirm)
        self.form = SessionFormViewModel(form: form, editing: id, words: words)
        deleteURL = Paths.deleteHistorySession.url(id)
        self.alert = alert
    }
}

/// What the history's forms do: add a sit, save a correction, delete one.
public enum SessionEntry {
    /// "Add sit": 303 to the history with "Sit added.", or the history again with each field's
    /// message (422), what was typed kept.
    public static func add(
        _ form: SessionFormViewModel.Form, sessions: any SittingSessionRepository, context: PageContext
    ) async -> SubmitOutcome<HistoryViewModel> {
        let blank = SittingSession(profileID: nil, profileName: "", startedAt: context.now, seconds: 0, completed: true)
        switch SessionFormViewModel.session(from: form, replacing: blank, context: context) {
        case .invalid(let form):
            guard
                case .page(let page) = await HistoryViewModel.load(
                    page: 1, from: sessions, context: context.withoutFlash, entry: form)
            else {
                return .failed(
                    HistoryViewModel.unavailable(context: context.withoutFlash, entry: form), .storage)
            }
            return .invalid(page)
        case .session(let session):
            do {
                _ = try await sessions.record(session)
                return .redirect(Redirect(to: Paths.history.url, flash: .success(context.words.historySitAdded)))
            } catch {
                return .failed(
                    HistoryViewModel.unavailable(
                        context: context.withoutFlash, entry: form,
                        message: StorageMessage.text(
                            for: error, otherwise: context.words.historySavingFailed, words: context.words)),
                    .storage)
            }
        }
    }

    /// "Edit sit": the form with the session's values; not found for a session not the person's.
    public static func edit(_ id: Int, sessions: any SittingSessionRepository, context: PageContext) async
        -> LoadOutcome<SessionEditViewModel>
    {
        do {
            guard let session = try await sessions.session(id: id) else { return .notFound }
            return .page(
                SessionEditViewModel(
                    id: id, form: SessionFormViewModel.Form(session, timeZone: context.timeZone), context: context))
        } catch {
            return .failed(
                .storage(
                    error, heading: context.words.historyUnavailable, otherwise: context.words.historyUnreadable,
                    context: context),
                .storage)
        }
    }

    /// "Save": 303 to the history with "Sit saved.", or the form again with each field's message.
    public static func save(
        _ id: Int, form: SessionFormViewModel.Form, sessions: any SittingSessionRepository, context: PageContext
    ) async -> SubmitOutcome<SessionEditViewModel> {
        let context = context.withoutFlash
        do {
            guard let stored = try await sessions.session(id: id) else { return .notFound }
            switch SessionFormViewModel.session(from: form, replacing: stored, context: context) {
            case .invalid(let form):
                return .invalid(SessionEditViewModel(id: id, form: form, context: context))
            case .session(let session):
                guard try await sessions.update(session) else { return .notFound }
                return .redirect(Redirect(to: Paths.history.url, flash: .success(context.words.historySitSaved)))
            }
        } catch {
            let message = StorageMessage.text(
                for: error, otherwise: context.words.historySavingFailed, words: context.words)
            return .failed(
                SessionEditViewModel(
                    id: id, form: form, context: context,
                    alert: AlertViewModel(title: context.words.historyNotSaved, message: message)),
                .storage)
        }
    }

    /// "Delete" (asked first in the browser): 303 to the history with "Sit deleted.", in the
    /// language of `words`.
    public static func delete(_ id: Int, sessions: any SittingSessionRepository, words: Words) async
        -> SubmitOutcome<SessionEditViewModel>
    {
        do {
            guard try await sessions.delete(id: id) else { return .notFound }
            return .redirect(Redirect(to: Paths.history.url, flash: .success(words.historySitDeleted)))
        } catch {
            let message = StorageMessage.text(for: error, otherwise: words.historyDeletingFailed, words: words)
            return .refused(
                Redirect(
                    to: Paths.history.url, flash: .error(title: words.historyNothingDeleted, message: message)))
        }
    }
}
