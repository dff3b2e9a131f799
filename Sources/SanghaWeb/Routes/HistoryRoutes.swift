import Foundation
import Hummingbird
import NIOPosix
import SanghaCore
import SanghaViewModels

/// `GET /history`: the sessions, a page at a time; a sit added, corrected or deleted by hand
/// (`/history/sessions`); the whole log exported (`/history/export.csv`, `.json`: downloads) and
/// imported (`/history/import`: a form with a file). The last three are written by hand.
struct HistoryRoutes: AreaRoutes {
    let services: RowServices

    /// "Add a sit", "Edit sit" as posted.
    struct SessionForm: Decodable, Sendable {
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

    static let rows: [PageRow] = [
        .get(
            Paths.history, query: ListPage.self,
            notFound: { words, list in words.historyNoListPage(page: words.number(list.page)) }
        ) {
            let person = try $0.person().id
            let (words, timeZone) = ($0.page.words, $0.page.timeZone)
            return await HistoryViewModel.load(
                page: $0.input.page, from: try $0.sessions(), context: $0.page,
                drawing: { HistoryParts.shared.drawing(of: person, $0, words: words) },
                table: { HistoryParts.shared.table(of: person, $0, timeZone: timeZone, words: words) })
        },
        .post(Paths.historySessions, form: SessionForm.self, notFound: sessionNotFound) {
            await SessionEntry.add($0.input.form, sessions: try $0.sessions(), context: $0.page)
        },
        .get(Paths.historySession, notFound: sessionNotFound) {
            await SessionEntry.edit($0.values, sessions: try $0.sessions(), context: $0.page)
        },
        .post(Paths.historySession, form: SessionForm.self, notFound: sessionNotFound) {
            await SessionEntry.save($0.values, form: $0.input.form, sessions: try $0.sessions(), context: $0.page)
        },
        .post(Paths.deleteHistorySession, notFound: sessionNotFound) {
            await SessionEntry.delete($0.values, sessions: try $0.sessions(), words: $0.page.words)
        },
        .get(Paths.historyImport) { LoadOutcome.page(PracticeLogImportViewModel(context: $0.page)) },
    ]

    func addHandWritten(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.historyCSV, use: exportCSV)
        router.get(Paths.historyJSON, use: exportJSON)
        router.post(Paths.historyImport, use: importFile)
    }

    static func sessionNotFound(_ words: Words) -> String { words.historySessionNotFound }

    /// The import's form (a file to preview, kept under a new token; or "Import" with the token
    /// of the file kept since its preview), read by `CSRFMiddleware` with its form token.
    @Sendable func importFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let form = context.multipartForm else {
            throw HTTPError(.unsupportedMediaType, message: context.page.words.historyMultipart)
        }
        let file = form.data("file")
        if let file, file.count > PracticeLogImport.uploadLimit {
            throw HTTPError(.contentTooLarge, message: context.page.words.historyFileTooLarge)
        }
        let sessions = dependencies.data.sessions(of: try context.person().id)
        // Off the cooperative pool: a 5 MiB file is read for a while.
        let reading: PracticeLogImportViewModel.Reading = { work in
            (try? await NIOThreadPool.singleton.runIfActive(work)) ?? work()
        }
        guard form.text("action") == "import" else {
            let token = SecretToken.make()
            return renderer.response(
                await PracticeLogImportViewModel.preview(
                    file: file, token: token, key: SecretToken.key(of: token), sessions: sessions,
                    context: context.page, reading: reading))
        }
        let key = form.text("token").flatMap(SecretToken.wellFormed).map(SecretToken.key(of:))
        return renderer.response(
            await PracticeLogImportViewModel.commit(
                key: key, sessions: sessions, context: context.page, reading: reading))
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
        let sessions = dependencies.data.sessions(of: try context.person().id)
        return try await Download(
            fileName: PracticeLogExport.fileName(
                "history", extension: `extension`, now: context.page.now, timeZone: context.page.timeZone),
            contentType: contentType, start: start, separator: separator, end: end, line: line,
            page: { last, _ in try await sessions.sessions(after: last?.cursor, limit: PracticeLogExport.pageSize) }
        ).response()
    }
}
