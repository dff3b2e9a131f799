import Foundation
import SanghaCore

/// `/history/import`: "File" and "Preview"; after a preview, what the file holds ("N sessions to
/// add, M already there, K lines with problems", each problem with its line) and, when it has
/// no problem and something to add, "Import" (the file's text goes with it, so nothing is kept
/// on the server between the two).
public struct PracticeLogImportViewModel: Sendable, Equatable, Encodable {
    public let layout: LayoutViewModel
    public let heading = "Import sessions"
    public let intro =
        "A file this site exported (CSV or JSON) adds its sessions to your history. Sessions already there are not added twice."
    public let actionURL: String = Paths.historyImport.url
    public let fileLabel = "File"
    public let previewLabel = "Preview"
    /// "3 sessions to add, 1 already there, 2 lines with problems"; nil before a preview.
    public let summary: String?
    /// The first `shownProblems` problems, each with its line: a file of 100,000 bad lines would
    /// otherwise answer megabytes of them.
    public let problems: [String]
    /// "…and 99,980 more lines with problems."; nil when every problem is shown.
    public let moreProblems: String?
    public let hasProblems: Bool
    /// The file's text in base64, sent again with "Import" (a hidden field, which keeps every
    /// byte, where a text area would not); nil when there is nothing to import.
    public let content: String?
    public let importLabel = "Import"
    public let alert: AlertViewModel?

    public init(
        context: PageContext, read: PracticeLogImport? = nil, count: SittingSession.ImportCount? = nil,
        content: String? = nil, alert: AlertViewModel? = nil
    ) {
        layout = LayoutViewModel(title: "Import sessions", section: .history, context: context)
        if let read, let count {
            let lines = read.problems.count
            summary =
                "\(CountText.of(count.added, "session")) to add, \(count.existing) already there, "
                + "\(CountText.of(lines, "line")) with problems"
        } else {
            summary = nil
        }
        let all = read?.problems ?? []
        problems = Array(all.prefix(Self.shownProblems))
        moreProblems =
            all.count > Self.shownProblems
            ? "…and \(CountText.of(all.count - Self.shownProblems, "more line")) with problems." : nil
        hasProblems = !all.isEmpty
        self.content =
            read != nil && problems.isEmpty && (count?.added ?? 0) > 0
            ? content.map { Data($0.utf8).base64EncodedString() } : nil
        self.alert = alert
    }

    /// What `POST /history/import` does with the file (or, when `commit`, the preview's text
    /// again, in base64): a preview (200; 422 when a line has a problem, and nothing is imported), or,
    /// committed, every new session added and 303 to the history.
    /// How many problems a preview lists.
    public static let shownProblems = 20

    ///
    /// `reading` runs the file's reading (up to 100,000 lines) where the caller chooses: the app
    /// passes its thread pool, so a large file never holds a task's thread; in place by default.
    public static func submit(
        file: Data?, preview: String?, commit: Bool, sessions: any SittingSessionRepository, context: PageContext,
        reading: @Sendable (@escaping @Sendable () -> PracticeLogImport) async -> PracticeLogImport = { $0() }
    ) async -> Outcome {
        let context = context.withoutFlash
        func refused(_ title: String, _ message: String) -> Outcome {
            .invalid(
                PracticeLogImportViewModel(context: context, alert: AlertViewModel(title: title, message: message)))
        }
        // "Import" sends the preview's text again, in base64; "Preview", the file.
        let bytes = commit ? preview.flatMap { Data(base64Encoded: $0) } : file
        guard let bytes, !bytes.isEmpty else {
            return commit
                ? refused("Nothing was imported.", "The preview could not be read: choose the file again.")
                : refused("Nothing to read.", "Choose a file, then Preview.")
        }
        guard let text = String(data: bytes, encoding: .utf8) else {
            return refused("Nothing to read.", "The file is not UTF-8 text: export it again as UTF-8.")
        }
        let now = context.now
        let read = await reading { PracticeLogImport.read(text, now: now) }
        do {
            let count = try await sessions.importSessions(read.sessions, commit: commit && read.problems.isEmpty)
            let page = PracticeLogImportViewModel(context: context, read: read, count: count, content: text)
            if !read.problems.isEmpty { return .invalid(page) }
            guard commit else { return .preview(page) }
            let message =
                count.added == 0
                ? "Nothing was imported: every session is already in your history."
                : "Imported \(CountText.of(count.added, "session"))\(count.existing > 0 ? "; \(count.existing) were already there" : "")."
            return .imported(Redirect(to: Paths.history.url, flash: .success(message)))
        } catch SittingSessionRepositoryError.historyFull(let held) {
            return refused(
                "Nothing was imported.",
                "Your history holds \(CountText.of(held, "session")), and an import may bring it to at most "
                    + "\(SittingSession.historyLimit): delete older sessions or import a smaller file.")
        } catch {
            return .failed(
                PracticeLogImportViewModel(
                    context: context,
                    alert: AlertViewModel(
                        title: "Nothing was imported.",
                        message: StorageMessage.text(for: error, otherwise: "Saving failed. Please try again."))))
        }
    }

    /// What a post of the import's form comes to.
    public enum Outcome: Sendable, Equatable {
        /// What the file holds, ready to import (200).
        case preview(PracticeLogImportViewModel)
        /// No file, or a line with a problem: nothing imported (422).
        case invalid(PracticeLogImportViewModel)
        /// Imported: to the history, with how many.
        case imported(Redirect)
        /// The storage failed: nothing imported (503).
        case failed(PracticeLogImportViewModel)
    }
}
