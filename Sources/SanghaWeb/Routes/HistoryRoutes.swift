import Foundation
import Hummingbird
import NIOPosix
import SanghaCore
import SanghaViewModels

/// `GET /history`: the sessions, a page at a time; a sit added, corrected or deleted by hand
/// (`/history/sessions`); the whole log exported (`/history/export.csv`, `.json`) and imported
/// (`/history/import`).
struct HistoryRoutes {
    let data: any PersonalData
    let renderer: PageRenderer
    let maxFormSize: Int

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.history, use: history)
        router.get(Paths.historyCSV, use: exportCSV)
        router.get(Paths.historyJSON, use: exportJSON)
        router.get(Paths.historyImport, use: importPage)
        router.post(Paths.historyImport, use: importFile)
        router.post(Paths.historySessions, use: addSession)
        router.get(Paths.historySession, use: editSession)
        router.post(Paths.historySession, use: saveSession)
        router.post(Paths.deleteHistorySession, use: deleteSession)
    }

    /// "Add a sit", "Edit sit" as posted.
    struct SessionForm: Decodable {
        var date: String?
        var startTime: String?
        var duration: String?
        var what: String?
        var note: String?

        var form: SessionFormViewModel.Form {
            SessionFormViewModel.Form(
                date: date ?? "", startTime: startTime ?? "", duration: duration ?? "", what: what ?? "",
                note: note ?? "")
        }
    }

    @Sendable func addSession(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(SessionForm.self, limit: maxFormSize).form
        let outcome = await SessionEntry.add(
            form, sessions: data.sessions(of: try context.person().id), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.sessionNotFound)
    }

    @Sendable func editSession(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.historySession.value(in: context, notFound: Self.sessionNotFound)
        let outcome = await SessionEntry.edit(
            id, sessions: data.sessions(of: try context.person().id), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.sessionNotFound)
    }

    @Sendable func saveSession(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.historySession.value(in: context, notFound: Self.sessionNotFound)
        let form = try await request.decodeForm(SessionForm.self, limit: maxFormSize).form
        let outcome = await SessionEntry.save(
            id, form: form, sessions: data.sessions(of: try context.person().id), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.sessionNotFound)
    }

    @Sendable func deleteSession(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.deleteHistorySession.value(in: context, notFound: Self.sessionNotFound)
        let outcome = await SessionEntry.delete(id, sessions: data.sessions(of: try context.person().id))
        return try renderer.response(outcome, for: request, notFound: Self.sessionNotFound)
    }

    static let sessionNotFound = "There is no such session in your history."

    @Sendable func importPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        renderer.htmlResponse(PracticeLogImportViewModel(context: context.page))
    }

    /// The import's form (a file to preview, or the preview's text again to import), read by
    /// `CSRFMiddleware` with its token.
    @Sendable func importFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let form = context.multipartForm else {
            throw HTTPError(
                .unsupportedMediaType, message: "The form must be sent as multipart/form-data, with its file.")
        }
        let file = form.data("file")
        if let file, file.count > PracticeLogImport.uploadLimit {
            throw HTTPError(.contentTooLarge, message: "The file is larger than 5 MiB: import it in parts.")
        }
        let outcome = await PracticeLogImportViewModel.submit(
            file: file, preview: form.text("content"), commit: form.text("action") == "import",
            sessions: data.sessions(of: try context.person().id), context: context.page
        ) { work in
            // Off the cooperative pool: a 5 MiB file is read for a while.
            (try? await NIOThreadPool.singleton.runIfActive(work)) ?? work()
        }
        return renderer.response(outcome)
    }

    /// Every session, oldest first, as CSV.
    @Sendable func exportCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let timeZone = context.page.timeZone
        return try await sessionsDownload(
            context, extension: "csv", contentType: "text/csv; charset=utf-8", start: PracticeLogExport.csvHeader,
            separator: "", end: ""
        ) { PracticeLogExport.csvLine($0, timeZone: timeZone) }
    }

    /// Every session, oldest first, as a JSON array.
    @Sendable func exportJSON(_ request: Request, context: AppRequestContext) async throws -> Response {
        let timeZone = context.page.timeZone
        return try await sessionsDownload(
            context, extension: "json", contentType: "application/json; charset=utf-8",
            start: PracticeLogExport.jsonStart, separator: PracticeLogExport.jsonSeparator,
            end: PracticeLogExport.jsonEnd
        ) { PracticeLogExport.jsonObject($0, timeZone: timeZone) }
    }

    private func sessionsDownload(
        _ context: AppRequestContext, extension: String, contentType: String, start: String, separator: String,
        end: String, line: @escaping @Sendable (SittingSession) -> String
    ) async throws -> Response {
        let sessions = data.sessions(of: try context.person().id)
        return try await Download(
            fileName: PracticeLogExport.fileName(
                "history", extension: `extension`, now: context.page.now, timeZone: context.page.timeZone),
            contentType: contentType, start: start, separator: separator, end: end, line: line,
            page: { last, _ in try await sessions.sessions(after: last?.cursor, limit: PracticeLogExport.pageSize) }
        ).response()
    }

    @Sendable func history(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try request.pageNumber()
        let outcome = await HistoryViewModel.load(
            page: page, from: data.sessions(of: try context.person().id), context: context.page)
        return try renderer.response(outcome, for: request, notFound: "The history has no page \(page).")
    }
}
