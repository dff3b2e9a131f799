import Hummingbird
import SanghaCore
import SanghaViewModels

/// One URL of a page or a form, written as one row: its method and route, the input it reads
/// (the path's values, and the query or the form, typed), the view model it asks, and what its
/// "not found" says, in the request's language. Every row runs through one handler
/// (`AreaRoutes.addRoutes(to:)`):
///
/// 1. the path's values are read (one that is not a number names nothing: 404 with the row's
///    words), and the query or the form decoded into the row's type (unreadable: 400; a body
///    too large: 413);
/// 2. the view model is asked, and answers an outcome (`RowOutcome`);
/// 3. the group events the outcome carries are published (a change others' open pages show);
/// 4. `PageRenderer` turns the outcome into the response, the one place that gives it a status.
///
/// So a route decides nothing: what to show, where to go next and who else is told are the view
/// model's; which status that is, the renderer's. What cannot be a row is written by hand beside
/// the rows: event streams, downloads, the import (a form with a file), signing in and out (their
/// cookies), and the identity provider's round trip.
struct PageRow: Sendable {
    let method: HTTPRequest.Method
    let pattern: String
    let respond: @Sendable (Request, AppRequestContext, RowServices) async throws -> Response

    /// A row whose path has its values read by `read` (nil: the path names nothing), with input
    /// `Input` from the query (GET) or the form (POST).
    fileprivate init<Values: Sendable, Input: Decodable & Sendable, Outcome: RowOutcome>(
        _ method: HTTPRequest.Method, _ pattern: String, input: Input.Type,
        read: @escaping @Sendable (AppRequestContext) -> Values?,
        notFound: @escaping @Sendable (Words, Input) -> String,
        ask: @escaping @Sendable (PageRequest<Values, Input>) async throws -> Outcome
    ) {
        self.method = method
        self.pattern = pattern
        respond = { request, context, services in
            let words = context.page.words
            let input =
                try await method == .get ? request.query(Input.self, words) : request.form(Input.self, services)
            guard let values = read(context) else { throw HTTPError(.notFound, message: notFound(words, input)) }
            let outcome = try await ask(PageRequest(values: values, input: input, request, context, services))
            return try await services.answer(outcome, to: request, notFound: notFound(words, input))
        }
    }
}

/// What the rows' handler needs of the application.
struct RowServices: Sendable {
    let dependencies: Dependencies
    let renderer: PageRenderer
    let configuration: AppConfiguration

    /// The response to `outcome`, once the group events it carries are published: the one place
    /// they are, for the rows and the hand-written routes alike.
    func answer(_ outcome: some RowOutcome, to request: Request, notFound: String) async throws -> Response {
        if !outcome.events.isEmpty { await dependencies.data.groupEvents.publish(outcome.events) }
        return try outcome.response(renderer, for: request, notFound: notFound)
    }
}

/// An area's URLs (`ProfilesRoutes`: `/profiles` and what is under it): its rows, and beside
/// them what is written by hand.
protocol AreaRoutes: Sendable {
    static var rows: [PageRow] { get }
    var services: RowServices { get }
    /// What cannot be a row: a download, a stream, a form with a file, a sign-in's cookies.
    func addHandWritten(to router: some RouterMethods<AppRequestContext>)
}

extension AreaRoutes {
    var dependencies: Dependencies { services.dependencies }
    var renderer: PageRenderer { services.renderer }
    var configuration: AppConfiguration { services.configuration }

    func addHandWritten(to router: some RouterMethods<AppRequestContext>) {}

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        add(Self.rows, to: router)
        addHandWritten(to: router)
    }

    /// Registers each row with the one handler that runs it.
    func add(_ rows: [PageRow], to router: some RouterMethods<AppRequestContext>) {
        for row in rows {
            router.on(RouterPath(row.pattern), method: row.method) { [services] request, context in
                try await row.respond(request, context, services)
            }
        }
    }
}

/// A request as a row's view model is asked it: the path's values, the query or form, the page
/// context, and (on the pages of someone signed in) the person and their own repositories only.
struct PageRequest<Values: Sendable, Input: Sendable>: Sendable {
    /// The route's values: the id, the two ids, or the token in the path.
    let values: Values
    let input: Input
    let request: Request
    let context: AppRequestContext
    let dependencies: Dependencies
    let configuration: AppConfiguration

    fileprivate init(
        values: Values, input: Input, _ request: Request, _ context: AppRequestContext, _ services: RowServices
    ) {
        (self.values, self.input, self.request, self.context) = (values, input, request, context)
        (dependencies, configuration) = (services.dependencies, services.configuration)
    }

    var page: PageContext { context.page }
    func person() throws -> Person { try context.person() }
    var people: any PeopleRepository { dependencies.people }
    func profiles() throws -> any ProfileRepository { dependencies.data.profiles(of: try person().id) }
    func sessions() throws -> any SittingSessionRepository { dependencies.data.sessions(of: try person().id) }
    func groups() throws -> any GroupRepository { dependencies.data.groups(of: try person().id) }
    /// The person's friends: their FriendService, with the last list saved for when it fails.
    func friends() throws -> FriendsRepository { dependencies.friends(of: try person()) }
    /// The person's FriendService alone (writes go to it, never to the saved list).
    func friendService() throws -> any FriendService { dependencies.friendServices.service(for: try person()) }
    /// `path` as a whole address on the site people use (a link shown to be shared).
    func link(_ path: String) -> String { configuration.linkURL(path, for: request) }
    /// Who is asking, for the limits on guessing.
    var requester: Requester { Requester(request, context, configuration) }
}

/// What a row's view model answers: the events it publishes, and its response.
protocol RowOutcome: Sendable {
    /// The group events to publish before answering (what changed on pages others have open).
    var events: [GroupEvent] { get }
    /// The response, its status decided by `renderer`; `notFound` is what a 404 says.
    func response(_ renderer: PageRenderer, for request: Request, notFound: String) throws -> Response
}

/// A row that reads no query or form.
struct NoInput: Decodable, Sendable {}

/// The `?page=N` of a paged list: 1 without it; anything but a whole number from 1 is 400
/// (`NotAPage`, which the row says in the request's language).
struct ListPage: Decodable, Sendable {
    let page: Int

    /// A `page` that is not a whole number from 1.
    struct NotAPage: Error {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let text = try container.decodeIfPresent(String.self, forKey: .page) else {
            page = 1
            return
        }
        guard let page = Int(text), page >= 1 else { throw NotAPage() }
        self.page = page
    }

    private enum CodingKeys: String, CodingKey { case page }
}

extension PageRow {
    /// `GET` of a route without values, reading `query`; `notFound` is what a 404 says, in the
    /// request's language (a paged list's, of the page asked for).
    static func get<Input: Decodable & Sendable, Outcome: RowOutcome>(
        _ route: Route<Void>, query: Input.Type, notFound: @escaping @Sendable (Words, Input) -> String,
        _ ask: @escaping @Sendable (PageRequest<Void, Input>) async throws -> Outcome
    ) -> PageRow { PageRow(.get, route.pattern, input: query, read: { _ in () }, notFound: notFound, ask: ask) }

    /// `GET` of a route without values that reads no query.
    static func get<Outcome: RowOutcome>(
        _ route: Route<Void>, notFound: @escaping @Sendable (Words) -> String = { $0.commonNoSuchPage },
        _ ask: @escaping @Sendable (PageRequest<Void, NoInput>) async throws -> Outcome
    ) -> PageRow { get(route, query: NoInput.self, notFound: { words, _ in notFound(words) }, ask) }

    static func get<Values: Sendable, Input: Decodable & Sendable, Outcome: RowOutcome>(
        _ route: Route<Values>, query: Input.Type, notFound: @escaping @Sendable (Words) -> String,
        _ ask: @escaping @Sendable (PageRequest<Values, Input>) async throws -> Outcome
    ) -> PageRow { PageRow(.get, route, input: query, notFound: notFound, ask: ask) }

    static func get<Values: Sendable, Outcome: RowOutcome>(
        _ route: Route<Values>, notFound: @escaping @Sendable (Words) -> String,
        _ ask: @escaping @Sendable (PageRequest<Values, NoInput>) async throws -> Outcome
    ) -> PageRow { PageRow(.get, route, input: NoInput.self, notFound: notFound, ask: ask) }

    /// `POST` to a route without values whose "not found" depends on what was posted.
    static func post<Input: Decodable & Sendable, Outcome: RowOutcome>(
        _ route: Route<Void>, form: Input.Type, notFound: @escaping @Sendable (Words, Input) -> String,
        _ ask: @escaping @Sendable (PageRequest<Void, Input>) async throws -> Outcome
    ) -> PageRow { PageRow(.post, route.pattern, input: form, read: { _ in () }, notFound: notFound, ask: ask) }

    static func post<Values: Sendable, Input: Decodable & Sendable, Outcome: RowOutcome>(
        _ route: Route<Values>, form: Input.Type, notFound: @escaping @Sendable (Words) -> String,
        _ ask: @escaping @Sendable (PageRequest<Values, Input>) async throws -> Outcome
    ) -> PageRow { PageRow(.post, route, input: form, notFound: notFound, ask: ask) }

    /// `POST` of a button: no form but its token.
    static func post<Values: Sendable, Outcome: RowOutcome>(
        _ route: Route<Values>, notFound: @escaping @Sendable (Words) -> String,
        _ ask: @escaping @Sendable (PageRequest<Values, NoInput>) async throws -> Outcome
    ) -> PageRow { PageRow(.post, route, input: NoInput.self, notFound: notFound, ask: ask) }

    /// A row of a route with values, whose "not found" is the same whatever the input.
    private init<Values: Sendable, Input: Decodable & Sendable, Outcome: RowOutcome>(
        _ method: HTTPRequest.Method, _ route: Route<Values>, input: Input.Type,
        notFound: @escaping @Sendable (Words) -> String,
        ask: @escaping @Sendable (PageRequest<Values, Input>) async throws -> Outcome
    ) {
        self.init(
            method, route.pattern, input: input, read: { route.values(in: $0) },
            notFound: { words, _ in notFound(words) }, ask: ask)
    }
}

extension Request {
    /// The query as `Input`; a `NoInput` row reads none. A page number that is not one is 400
    /// in `words`' language.
    fileprivate func query<Input: Decodable>(_ type: Input.Type, _ words: Words) throws -> Input {
        if let none = NoInput() as? Input { return none }
        do {
            return try URLEncodedFormDecoder().decode(type, from: uri.query ?? "")
        } catch is ListPage.NotAPage {
            throw HTTPError(.badRequest, message: words.commonPageNotANumber)
        } catch {
            throw UnreadableRequest.queryUnreadable
        }
    }

    /// The form as `Input`; a `NoInput` row reads no body.
    fileprivate func form<Input: Decodable>(_ type: Input.Type, _ services: RowServices) async throws -> Input {
        if let none = NoInput() as? Input { return none }
        return try await decodeForm(type, limit: services.configuration.maxFormSize)
    }
}

extension Requester {
    /// Who is asking, for the limits on guessing: the client's address (behind a trusted proxy,
    /// the one it names) and device cookie.
    init(_ request: Request, _ context: AppRequestContext, _ configuration: AppConfiguration) {
        self.init(
            address: ClientAddress.of(
                request, peer: context.remoteAddress, trustedProxies: configuration.trustedProxies),
            device: context.device, addressLimit: configuration.addressLimit)
    }
}
