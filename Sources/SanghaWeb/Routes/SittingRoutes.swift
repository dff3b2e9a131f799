import Foundation
import Hummingbird
import SanghaCore
import SanghaViewModels

/// `POST /sessions`: the sitting page's script records a session run to the end or stopped
/// after a minute. `POST /sitting` and `POST /sitting/stop`: it says when the person sits and
/// stops, for their groups' "Sitting now". `GET /history`: the sessions, a page at a time.
struct SittingRoutes {
    let data: any PersonalData
    let renderer: PageRenderer
    let maxFormSize: Int

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.post("sessions", use: record)
        router.post("sitting", use: startSitting)
        router.post("sitting/stop", use: stopSitting)
        router.get("history", use: history)
        router.get("history/export.csv", use: exportCSV)
        router.get("history/export.json", use: exportJSON)
        router.get("history/import", use: importPage)
        router.post("history/import", use: importFile)
        router.post("history/sessions", use: addSession)
        router.get("history/sessions/:id", use: editSession)
        router.post("history/sessions/:id", use: saveSession)
        router.post("history/sessions/:id/delete", use: deleteSession)
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
        var request = request
        let form = try await request.decodeForm(SessionForm.self, limit: maxFormSize).form
        let outcome = await SessionEntry.add(
            form, sessions: data.sessions(of: try context.person().id), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.sessionNotFound)
    }

    @Sendable func editSession(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("session")
        let outcome = await SessionEntry.edit(
            id, sessions: data.sessions(of: try context.person().id), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.sessionNotFound)
    }

    @Sendable func saveSession(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let id = try context.requireID("session")
        let form = try await request.decodeForm(SessionForm.self, limit: maxFormSize).form
        let outcome = await SessionEntry.save(
            id, form: form, sessions: data.sessions(of: try context.person().id), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.sessionNotFound)
    }

    @Sendable func deleteSession(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.requireID("session")
        let outcome = await SessionEntry.delete(id, sessions: data.sessions(of: try context.person().id))
        return try renderer.response(outcome, for: request, notFound: Self.sessionNotFound)
    }

    static let sessionNotFound = "There is no such session in your history."

    @Sendable func importPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        renderer.htmlResponse(PracticeLogImportViewModel(context: context.page))
    }

    /// The import's form: a file to preview, or the preview's text again to import.
    struct ImportForm: Decodable {
        var file: Data?
        var content: String?
        var action: String?
    }

    @Sendable func importFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let form = try await request.decodeMultipartForm(ImportForm.self, limit: PracticeLogImport.formLimit)
        if let file = form.file, file.count > PracticeLogImport.uploadLimit {
            throw HTTPError(.contentTooLarge, message: "The file is larger than 5 MiB: import it in parts.")
        }
        let outcome = await PracticeLogImportViewModel.submit(
            file: form.file, preview: form.content, commit: form.action == "import",
            sessions: data.sessions(of: try context.person().id), context: context.page)
        switch outcome {
        case .preview(let page): return renderer.htmlResponse(page)
        case .invalid(let page): return renderer.htmlResponse(page, status: .unprocessableContent)
        case .failed(let page): return renderer.htmlResponse(page, status: .serviceUnavailable)
        case .imported(let redirect):
            return try renderer.response(
                SubmitOutcome<PracticeLogImportViewModel>.saved(redirect), for: request, notFound: "")
        }
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

    @Sendable func startSitting(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let input = try await request.decodeForm(SittingPresence.Input.self, limit: maxFormSize)
        let person = try context.person().id
        return try await presence(
            SittingPresence.start(
                input, profiles: data.profiles(of: person), groups: data.groups(of: person), now: context.page.now),
            ofSit: input.sit != nil || input.group != nil)
    }

    @Sendable func stopSitting(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await presence(SittingPresence.stop(groups: data.groups(of: try context.person().id)))
    }

    /// 204 once the person's groups are told; the script needs nothing back.
    private func presence(_ outcome: SittingPresence.Outcome, ofSit: Bool = false) async throws -> Response {
        switch outcome {
        case .announced(let groups):
            await data.groupEvents.publish(groups.map { .changed(group: $0) })
            return Response(status: .noContent)
        case .notFound: throw HTTPError(.notFound, message: ofSit ? GroupsRoutes.sitNotFound : ProfilesRoutes.notFound)
        case .invalid(let message): throw HTTPError(.unprocessableContent, message: message)
        case .failed(let message): throw HTTPError(.serviceUnavailable, message: message)
        }
    }

    /// A session sat alone (with `profile`) or with a group sit (with `group` and `sit`).
    @Sendable func record(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let input = try await request.decodeForm(SittingSessionInput.self, limit: maxFormSize)
        let person = try context.person()
        let sessions = data.sessions(of: person.id)
        if input.isGroupSit {
            let outcome = await GroupSitViewModel.record(
                input, groups: data.groups(of: person.id), sessions: sessions, context: context.page)
            return try renderer.response(outcome, for: request, notFound: GroupsRoutes.sitNotFound)
        }
        let outcome = await SittingViewModel.record(
            input, profiles: data.profiles(of: person.id), sessions: sessions, context: context.page)
        return try renderer.response(outcome, for: request, notFound: ProfilesRoutes.notFound)
    }
}
