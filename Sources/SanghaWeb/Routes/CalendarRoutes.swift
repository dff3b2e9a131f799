import Crypto
import Foundation
import Hummingbird
import SanghaCore
import SanghaViewModels

/// Calendars: a person's feed (`GET /calendar/{token}.ics`, read by calendar apps without a
/// cookie: the token is the key, and only its SHA-256 is kept), making or resetting its link
/// (`POST /settings/calendar`), and one sit as a file ("Add to calendar",
/// `GET /groups/{id}/sits/{sit}/calendar.ics`).
struct CalendarRoutes: AreaRoutes {
    let services: RowServices
    /// The feeds written lately (`CalendarFeedMemo`).
    let memo: CalendarFeedMemo

    static let rows: [PageRow] = [
        // "Create calendar link", "Reset calendar link": a new token, shown once on the page this
        // post answers; the old link's address is 404 from now on.
        .post(Paths.calendarLink, notFound: PeopleRoutes.gone) { asked in
            let token = SecretToken.make()
            return await SettingsViewModel.makeCalendarLink(
                key: SecretToken.key(of: token), url: asked.link(Paths.calendarFeed.url(token)),
                person: try asked.person(), acceptsToken: asked.dependencies.friendTokens.acceptsPastedToken,
                people: asked.people, context: await asked.dependencies.settingsPage(asked.request, asked.context))
        }
    ]

    /// What a calendar app fetches: no sign-in.
    func addPublicRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.calendarFeed, use: feed)
    }

    /// A sit's file, for someone signed in: a download.
    func addHandWritten(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.groupSitCalendar, use: sitFile)
    }

    static let noFeed = "There is no calendar at this address: its link may have been reset."

    /// The feed of the person whose link this is; 404 for a link reset, or a person disabled
    /// or deleted. `ETag` and `If-None-Match`: a calendar that polls gets 304 while nothing changed.
    @Sendable func feed(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let token = Paths.calendarFeed.value(in: context).flatMap(SecretToken.wellFormed) else {
            throw HTTPError(.notFound, message: Self.noFeed)
        }
        let now = dependencies.now()
        let site = site(request)
        let feed: CalendarFeedMemo.Feed
        do {
            guard let person = try await dependencies.people.person(calendarKey: SecretToken.key(of: token)) else {
                throw HTTPError(.notFound, message: Self.noFeed)
            }
            let (kept, read) = memo.feed(of: person, site: site)
            if let kept {
                feed = kept
            } else {
                let sits = try await dependencies.data.groups(of: person.id).calendarSits(at: now)
                let text = CalendarFeed.ics(for: person, sits: sits, site: site, now: now)
                feed = CalendarFeedMemo.Feed(
                    body: ByteBuffer(string: text), etag: Self.etag(of: text), person: person, site: site)
                memo.keep(feed, from: read)
            }
        } catch let error as HTTPError {
            throw error
        } catch {
            throw PageFailure.storage.error(
                StorageMessage.text(for: error, otherwise: "Reading the calendar failed. Please try again."))
        }
        return Self.calendar(feed.body, etag: feed.etag, for: request, fileName: nil)
    }

    /// "Add to calendar" on a sit's page: that one sit, read alone, for a member of its group
    /// (anyone else's is 404, as a sit that does not exist).
    @Sendable func sitFile(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (group, id) = try Paths.groupSitCalendar.values(
            in: context, notFound: GroupsRoutes.sitNotFound(context.page.words))
        let groups = dependencies.data.groups(of: try context.person().id)
        let found: CalendarSit?
        do {
            found = try await groups.calendarSit(id, of: group)
        } catch GroupRepositoryError.notFound {
            found = nil
        } catch {
            throw PageFailure.storage.error(
                StorageMessage.text(
                    for: error, otherwise: context.page.words.calendarReadingSitFailed, words: context.page.words))
        }
        guard let found else { throw HTTPError(.notFound, message: GroupsRoutes.sitNotFound(context.page.words)) }
        let text = CalendarFeed.ics(for: found, site: site(request), words: context.page.words)
        return Self.calendar(ByteBuffer(string: text), etag: Self.etag(of: text), for: request, fileName: "sit.ics")
    }

    /// Where the feed's links begin: `--public-url`'s origin, else the request's host.
    private func site(_ request: Request) -> String {
        let home = configuration.linkURL(Paths.home.url, for: request)
        return String(home.dropLast())
    }

    /// A strong ETag of `text`'s bytes.
    static func etag(of text: String) -> String {
        "\"" + SecretToken.hex(SHA256.hash(data: Data(text.utf8)).prefix(16)) + "\""
    }

    /// `text/calendar` with its `ETag` (304 when the calendar has these bytes already).
    static func calendar(_ body: ByteBuffer, etag: String, for request: Request, fileName: String?) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/calendar; charset=utf-8", .eTag: etag, .cacheControl: "private, no-cache",
        ]
        if let fileName { headers[.contentDisposition] = "attachment; filename=\"\(fileName)\"" }
        if IfNoneMatch.matches(request, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}
