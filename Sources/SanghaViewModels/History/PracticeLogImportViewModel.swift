import Foundation
import SanghaCore

/// `/history/import`: "File" and "Preview"; after a preview, what the file holds ("N sessions to
/// add, M already there, K lines with problems", each problem with its line) and, when it has
/// no problem and something to add, "Import". The previewed file waits on the server
/// (`PendingImport`); the page carries only the token that names it, which "Import" sends back.
public struct PracticeLogImportViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading: String
    public let intro: String
    public let actionURL: String = Paths.historyImport.url
    public let fileLabel: String
    public let previewLabel: String
    /// "3 sessions to add, 1 already there, 2 lines with problems"; nil before a preview.
    public let summary: String?
    /// The first `shownProblems` problems, each with its line: a file of 100,000 bad lines would
    /// otherwise answer megabytes of them.
    public let problems: [String]
    /// "…and 99,980 more lines with problems."; nil when every problem is shown.
    public let moreProblems: String?
    public let hasProblems: Bool
    /// Why there is no "Import" when a line has a problem, and what to do: correct the file and
    /// preview it again (a bad file changes nothing). nil without problems.
    public let problemsNote: String?
    /// The token of the previewed file kept on the server, sent with "Import" (a hidden field);
    /// nil when there is nothing to import.
    public let token: String?
    public let importLabel: String
    public let alert: AlertViewModel?

    public init(
        context: PageContext, read: PracticeLogImport? = nil, count: SittingSession.ImportCount? = nil,
        token: String? = nil, alert: AlertViewModel? = nil
    ) {
        let words = context.words
        layout = LayoutViewModel(title: words.historyImportSessions, section: .history, context: context)
        (heading, intro) = (words.historyImportSessions, words.historyImportIntro)
        (fileLabel, previewLabel, importLabel) = (words.historyFile, words.historyPreview, words.historyImport)
        if let read, let count {
            summary = words.historyImportSummary(
                toAdd: words.historyToAdd(count.added), alreadyThere: words.historyAlreadyThere(count.existing),
                withProblems: words.historyWithProblems(read.problems.count))
        } else {
            summary = nil
        }
        let all = read?.problems ?? []
        problems = Array(all.prefix(Self.shownProblems))
        moreProblems =
            all.count > Self.shownProblems ? words.historyMoreProblems(all.count - Self.shownProblems) : nil
        hasProblems = !all.isEmpty
        problemsNote = all.isEmpty ? nil : words.historyFixAndPreviewAgain
        self.token = read != nil && problems.isEmpty && (count?.added ?? 0) > 0 ? token : nil
        self.alert = alert
    }

    /// How many problems a preview lists.
    public static let shownProblems = 20

    /// Where the file's reading (up to 100,000 lines) runs: the app passes its thread pool, so a
    /// large file never holds a task's thread; in place by default.
    public typealias Reading = @Sendable (@escaping @Sendable () -> PracticeLogImport) async -> PracticeLogImport

    /// "Preview": what `file` holds (200; 422 when a line has a problem). When it has sessions to
    /// add and no problem, the file is kept for the person under `key` (the SHA-256 of `token`)
    /// for `PendingImport.lifetime`, and the page's "Import" sends `token`.
    public static func preview(
        file: Data?, token: String, key: String, sessions: any SittingSessionRepository, context: PageContext,
        reading: Reading = { $0() }
    ) async -> Outcome {
        let context = context.withoutFlash
        let words = context.words
        guard let file, !file.isEmpty else {
            return refused(words.historyNothingToRead, words.historyChooseFile, context)
        }
        guard let text = String(data: file, encoding: .utf8) else {
            return refused(words.historyNothingToRead, words.historyNotUtf8, context)
        }
        let now = context.now
        let read = await reading { PracticeLogImport.read(text, now: now, words: words) }
        do {
            let count = try await sessions.importSessions(read.sessions, commit: false)
            let page = PracticeLogImportViewModel(context: context, read: read, count: count, token: token)
            if !read.problems.isEmpty { return .invalid(page) }
            if page.token != nil {
                try await sessions.keepImport(
                    file, key: key, at: now, expiresAt: now.addingTimeInterval(PendingImport.lifetime))
            }
            return .preview(page)
        } catch {
            return failure(error, context)
        }
    }

    /// Why "Import" finds no file: its token is unknown, expired, used, or a newer preview
    /// replaced its file.
    public static let expiredMessage =
        "This preview is no longer kept: a preview waits an hour, is imported once, and a newer preview replaces it. Choose the file again, then Preview."

    /// "Import": every new session of the file kept under `key` (the SHA-256 of the token the
    /// preview sent; nil for a token that cannot be one) is added, the file forgotten, and 303
    /// to the history. No such file kept: nothing imported (410, `expiredMessage`).
    public static func commit(
        key: String?, sessions: any SittingSessionRepository, context: PageContext, reading: Reading = { $0() }
    ) async -> Outcome {
        let context = context.withoutFlash
        let words = context.words
        let now = context.now
        do {
            guard let key, let file = try await sessions.keptImport(key: key, at: now),
                let text = String(data: file, encoding: .utf8)
            else {
                return .expired(
                    PracticeLogImportViewModel(
                        context: context,
                        alert: AlertViewModel(title: words.historyNothingImported, message: words.historyPreviewExpired)
                    ))
            }
            let read = await reading { PracticeLogImport.read(text, now: now, words: words) }
            let count = try await sessions.importSessions(read.sessions, commit: read.problems.isEmpty)
            if !read.problems.isEmpty {
                return .invalid(PracticeLogImportViewModel(context: context, read: read, count: count))
            }
            // Imported: the token is used. Were the file not forgotten, a second "Import" would
            // still add nothing (a session already there is not added again).
            try? await sessions.forgetImport(key: key)
            let sessions = words.historySessionCount(count.added)
            let message =
                count.added == 0
                ? words.historyAllThere
                : count.existing > 0
                    ? words.historyImportedWithExisting(count.existing, sessions: sessions)
                    : words.historyImported(sessions: sessions)
            return .imported(Redirect(to: Paths.history.url, flash: .success(message)))
        } catch {
            return failure(error, context)
        }
    }

    private static func refused(_ title: String, _ message: String, _ context: PageContext) -> Outcome {
        .invalid(PracticeLogImportViewModel(context: context, alert: AlertViewModel(title: title, message: message)))
    }

    /// A history that would grow past its limit (422), or the storage's failure (503).
    private static func failure(_ error: any Error, _ context: PageContext) -> Outcome {
        let words = context.words
        if case .historyFull(let held) = error as? SittingSessionRepositoryError {
            return refused(
                words.historyNothingImported,
                words.historyHistoryFull(
                    sessions: words.historySessionCount(held), limit: words.number(SittingSession.historyLimit)),
                context)
        }
        return .failed(
            PracticeLogImportViewModel(
                context: context,
                alert: AlertViewModel(
                    title: words.historyNothingImported,
                    message: StorageMessage.text(for: error, otherwise: words.historySavingFailed, words: words))))
    }

    /// What a post of the import's form comes to.
    public enum Outcome: Sendable, Equatable {
        /// What the file holds, ready to import (200).
        case preview(PracticeLogImportViewModel)
        /// No file, or a line with a problem: nothing imported (422).
        case invalid(PracticeLogImportViewModel)
        /// "Import" with a token that names no file kept: nothing imported (410).
        case expired(PracticeLogImportViewModel)
        /// Imported: to the history, with how many.
        case imported(Redirect)
        /// The storage failed: nothing imported (503).
        case failed(PracticeLogImportViewModel)
    }
}
