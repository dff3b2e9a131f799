import Foundation
import Resilience
import SanghaCore
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The FriendService client: the original API over URLSession (libcurl on Linux).
///
/// It owns the access token, as an API layer does, and bounds every call by a
/// timeout. Whatever the server sends, the caller gets a friend, a list, or a
/// `FriendServiceError` with a reason; nothing a server answers can crash it.
public struct URLSessionFriendService: FriendService {
    public struct Configuration: Sendable {
        public var baseURL: URL
        /// Sent as `Authorization: Bearer <token>` when set.
        public var token: String?
        /// How long one call may take before it fails with `.transport`.
        public var timeout: Duration

        public init(baseURL: URL, token: String? = nil, timeout: Duration = .seconds(3)) {
            self.baseURL = baseURL
            self.token = token
            self.timeout = timeout
        }
    }

    public let configuration: Configuration
    private let session: URLSession
    /// The calls under way, each ended at the timeout if still unanswered.
    private let watch: DeadlineWatch
    private let lastList = LastList()

    /// One session serves every call, so connections to the service are reused.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // libcurl's URLSession counts these in whole seconds (0.5 s becomes an instant timeout),
        // so they are a rounded-up backstop; `perform` enforces the exact timeout.
        let seconds = configuration.timeout.timeInterval.rounded(.up)
        sessionConfiguration.timeoutIntervalForRequest = seconds
        sessionConfiguration.timeoutIntervalForResource = seconds
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        // The API speaks by bearer token, never by cookie. Every person's calls share this
        // session, so a cookie one person's answer set went with the next person's calls; and
        // Foundation parsed every header line of every answer for cookies, a tenth of the work
        // of a page that lists friends.
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.httpCookieStorage = nil
        // The default of 6 queues a busy server's pages behind each other.
        sessionConfiguration.httpMaximumConnectionsPerHost = 32
        self.session = URLSession(configuration: sessionConfiguration)
        watch = DeadlineWatch(timeout: configuration.timeout)
    }

    private init(configuration: Configuration, session: URLSession, watch: DeadlineWatch) {
        self.configuration = configuration
        self.session = session
        self.watch = watch
    }

    /// The same service for another bearer token (one person's): the same connections, its own
    /// memory of the last list. nil or empty: this client's own token.
    public func with(token: String?) -> URLSessionFriendService {
        guard let token, !token.isEmpty else { return self }
        var configuration = configuration
        configuration.token = token
        return URLSessionFriendService(configuration: configuration, session: session, watch: watch)
    }

    public func listFriends() async throws(FriendServiceError) -> [Friend] {
        let body = try await send("GET", "listFriends")
        if let friends = lastList.friends(ifBodyIs: body) { return friends }
        let friends = try decode([Friend].self, from: body)
        lastList.remember(friends, body: body)
        return friends
    }

    public func addFriend(_ draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        try decode(Friend.self, from: try await send("POST", "addFriend", body: draft))
    }

    public func updateFriend(id: Int, with draft: FriendDraft) async throws(FriendServiceError) -> Friend {
        try decode(Friend.self, from: try await send("PATCH", "editFriend/\(id)", body: draft))
    }

    public func deleteFriend(id: Int) async throws(FriendServiceError) {
        _ = try await send("DELETE", "editFriend/\(id)")
    }

    // MARK: - One call

    private func send(_ method: String, _ path: String, body: FriendDraft? = nil) async throws(FriendServiceError)
        -> Data
    {
        var request = URLRequest(url: configuration.baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.timeoutInterval = configuration.timeout.timeInterval.rounded(.up)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token = configuration.token, !token.isEmpty {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONEncoder().encode(body)
        }

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await perform(request)
        } catch {
            throw FriendServiceError(.transport(Self.describe(error)))
        }
        guard let http = response as? HTTPURLResponse else {
            throw FriendServiceError(.decoding("The answer was not an HTTP response."))
        }
        switch http.statusCode {
        case 200..<300: return data
        case 400: throw FriendServiceError(.invalid(Self.reason(in: data) ?? "The FriendService refused the values."))
        case 401: throw FriendServiceError(.unauthorized)
        case 404: throw FriendServiceError(.notFound)
        default: throw FriendServiceError(.server(status: http.statusCode))
        }
    }

    /// The request, or `URLError(.timedOut)` once the configured timeout has passed.
    ///
    /// The deadline is kept here rather than left to URLSession: on Linux it counts timeouts
    /// in whole seconds and, under load, was seen not to call back at all. Whichever comes
    /// first, the answer or the deadline (`DeadlineWatch`), resumes the caller; the other is
    /// ignored.
    private func perform(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let pending = FirstAnswer<Result<(Data, URLResponse), any Error>>()
        let watch = watch
        return try await withCheckedContinuation { continuation in
            pending.start(continuation)
            let task = Mutex<URLSessionDataTask?>(nil)
            let watched = watch.add {
                if pending.finish(.failure(URLError(.timedOut))) { task.withLock { $0?.cancel() } }
            }
            let started = session.dataTask(with: request) { data, response, error in
                watch.remove(watched)
                if let data, let response {
                    pending.finish(.success((data, response)))
                } else {
                    pending.finish(.failure(error ?? URLError(.badServerResponse)))
                }
            }
            task.withLock { $0 = started }
            started.resume()
        }.get()
    }

    private func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(FriendServiceError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw FriendServiceError(.decoding(String(describing: error)))
        }
    }

    /// The `reason` of the contract's error body, when the body is one.
    static func reason(in data: Data) -> String? {
        struct ErrorBody: Decodable { let reason: String }
        return try? JSONDecoder().decode(ErrorBody.self, from: data).reason
    }

    static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return "The request timed out."
            case .cannotConnectToHost, .cannotFindHost, .networkConnectionLost, .notConnectedToInternet:
                return "Could not connect to the FriendService."
            default: return urlError.localizedDescription
            }
        }
        return String(describing: error)
    }
}

extension Duration {
    /// Seconds as Foundation counts them.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// The last list the service sent, as bytes and decoded: a list that has not changed since
/// (the usual case: a list is read far more often than it is written) is not decoded again.
private final class LastList: Sendable {
    private let last = Mutex<(body: Data, friends: [Friend])?>(nil)

    func friends(ifBodyIs body: Data) -> [Friend]? {
        last.withLock { last in last?.body == body ? last?.friends : nil }
    }

    func remember(_ friends: [Friend], body: Data) {
        last.withLock { $0 = (body, friends) }
    }
}
