import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `sangha` binary, started as a person would start it, on free loopback ports, and
/// stopped by its process id. Whatever waits for the process waits off the cooperative pool
/// (`offThePool`). Used by one test at a time.
public final class SanghaProcess: @unchecked Sendable {
    public let port: Int
    public let baseURL: URL
    public let logFile: URL
    private let process: Process

    public static var binary: URL {
        RepositoryPaths.root.appendingPathComponent(".build/debug/sangha")
    }

    /// `sangha serve` on a free port, started in `dataDirectory` (not the repository: the binary
    /// carries its templates and static files), keeping its data and its log there, with
    /// `arguments` after those; by default an embedded FriendService on another free port.
    ///
    /// A free port is found by opening a listener on port 0 and closing it, so another test may
    /// take it before sangha binds it: a start that failed on "Address already in use" is tried
    /// again on other ports (the ones sangha picks itself; a port given in `arguments` stays).
    /// `launcher`: a command that runs the binary, its arguments first (`prlimit --nofile=…`).
    public static func serve(dataDirectory: URL, _ arguments: [String]? = nil, launcher: [String] = []) async throws
        -> SanghaProcess
    {
        for attempt in 1...3 {
            let port = try SilentServer.freePort()
            let rest = try arguments ?? ["--friend-service-port", "\(SilentServer.freePort())"]
            do {
                return try await SanghaProcess(
                    serveWith: ["serve", "--port", "\(port)", "--data-dir", dataDirectory.path] + testPasswordCost
                        + openDoor + rest,
                    port: port,
                    logFile: dataDirectory.appendingPathComponent("sangha-\(port).log"),
                    workingDirectory: dataDirectory, launcher: launcher
                )
            } catch let error as SanghaProcessError
                where attempt < 3 && error.description.contains("Address already in use")
            {
                continue
            }
        }
        throw SanghaProcessError("unreachable: the last attempt returns or throws")
    }

    /// bcrypt at its least cost: a debug build's sign-up takes a millisecond, not a second.
    public static let testPasswordCost = ["--password-cost", "4"]
    /// The tests sign up many people from loopback: anyone may, as often as they like.
    public static let openDoor = ["--sign-up", "open", "--address-limit", "0"]

    /// Runs `sangha <arguments>` to its end; its exit status and what it printed (standard output
    /// and error together), for commands that do not serve.
    public static func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> (
        status: Int32, output: String
    ) {
        try await offThePool { try runBlocking(arguments, environment: environment) }
    }

    private static func runBlocking(_ arguments: [String], environment: [String: String]?) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// Runs `sangha <arguments>` (through `launcher`, when one is given) and waits until
    /// `healthPath` answers 200.
    public init(
        serveWith arguments: [String], port: Int, logFile: URL, workingDirectory: URL = RepositoryPaths.root,
        healthPath: String = "health", launcher: [String] = []
    ) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw SanghaProcessError("\(Self.binary.path) is missing: build it first (make test does).")
        }
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.logFile = logFile
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [Self.binary.path] + arguments
        } else {
            process.executableURL = Self.binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = workingDirectory
        process.standardOutput = log
        process.standardError = log
        try process.run()
        try await waitUntilHealthy(healthPath)
    }

    /// Sends SIGTERM and waits for the exit; returns the exit status. A process still running
    /// 10 s later is killed, so a stuck shutdown fails its test instead of hanging the run.
    @discardableResult public func stop() async -> Int32 {
        nonisolated(unsafe) let process = process
        let (status, killed) = await offThePool { Self.terminate(process) }
        if killed { Issue.record("sangha did not exit within 10 s of SIGTERM; killed it") }
        return status
    }

    /// SIGTERM without waiting here, for a `defer` (which cannot await): a thread of its own
    /// waits for the exit, and kills a process still running 10 s later.
    public func stopInBackground() {
        guard process.isRunning else { return }
        nonisolated(unsafe) let process = process
        Thread.detachNewThread { _ = Self.terminate(process) }
    }

    /// SIGTERM, then SIGKILL if it runs 10 s later; waits for the exit on the calling thread.
    /// The exit status, and whether it had to be killed.
    private static func terminate(_ process: Process) -> (status: Int32, killed: Bool) {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        let killed = process.isRunning
        if killed { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, killed)
    }

    /// `kill -9`: no shutdown at all, as a crash or a power cut would leave it.
    public func kill() async {
        nonisolated(unsafe) let process = process
        await offThePool {
            if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    deinit {
        stopInBackground()
    }

    public var isRunning: Bool { process.isRunning }

    /// The process's id (a launcher that `exec`s, as prlimit does, keeps it).
    public var processIdentifier: Int32 { process.processIdentifier }

    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// How long a started server may take to answer: generous, since under the whole suite on
    /// two busy cores one poll's answer has been seen to take over ten seconds to reach the test.
    static let startDeadline: Duration = .seconds(90)

    private func waitUntilHealthy(_ path: String) async throws {
        let deadline = ContinuousClock.now + Self.startDeadline
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                throw SanghaProcessError("sangha exited with \(process.terminationStatus):\n\(log)")
            }
            if let response = try? await HTTPClient().send("GET", baseURL.appendingPathComponent(path)),
                response.status == 200, Self.listens(process.processIdentifier, on: port)
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw SanghaProcessError("sangha did not answer /\(path) within \(Self.startDeadline):\n\(log)")
    }
}

extension SanghaProcess {
    /// Whether process `pid` holds a socket listening on `port` (on loopback or any address). A
    /// 200 from the port alone is not enough: a process that lost its port to another test's
    /// server answers through that server until it reaches its own bind and exits on "Address
    /// already in use".
    static func listens(_ pid: Int32, on port: Int) -> Bool {
        // /proc/net/tcp(6): "sl local_address rem_address st … inode", the address's port in
        // hex after its colon; LISTEN is 0A.
        let local = String(format: ":%04X", UInt32(port))
        let tables = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
        let inodes = Set(
            tables.flatMap { $0.split(separator: "\n").dropFirst() }.compactMap { line -> String? in
                let fields = line.split(separator: " ")
                return fields.count > 9 && fields[1].hasSuffix(local) && fields[3] == "0A" ? String(fields[9]) : nil
            })
        let descriptors = "/proc/\(pid)/fd"
        let owned = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
        return owned.contains { descriptor in
            guard
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(descriptors)/\(descriptor)")
            else { return false }
            return inodes.contains { target == "socket:[\($0)]" }
        }
    }
}

public struct SanghaProcessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A small HTTP client for end-to-end tests, behaving like a browser tab: it keeps the cookies
/// the server sets and sends them back, and a form it posts carries the CSRF token as the page's
/// form would. It does not follow redirects, so a test sees the 303 as a network panel would.
///
/// Built on AsyncHTTPClient (SwiftNIO), not URLSession: corelibs Foundation's URLSession, asked
/// not to follow a redirect, now and then crashed the test process ("Received callback for HTTP
/// redirection, but we're not waiting for it") or left a request unanswered for good under a
/// busy parallel run. The app's own FriendService client stays on URLSession and is tested as such.
public final class HTTPClient: Sendable {
    private let cookies = Mutex<[String: String]>([:])
    /// The form token of the last page with a form, as long as the cookies it was made for stay.
    private let formToken = Mutex<String?>(nil)

    public struct Response: Sendable {
        public let status: Int
        /// Each header once; a header sent more than once (Set-Cookie) has its values joined by
        /// ", ", as URLSession's `allHeaderFields` had them.
        public let headers: [String: String]
        public let body: String

        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// One connection pool for every test client in the process, for its whole life.
    private static let transport = AsyncHTTPClient.HTTPClient(
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
        configuration: .init(redirectConfiguration: .disallow))

    /// How long a request may take before it fails its test.
    public static let requestTimeout: TimeAmount = .seconds(30)

    /// The password every test account has.
    public static let testPassword = "correct horse battery"

    /// Creates an account on the server at `baseURL` as a person would (the sign-up page for the
    /// form token, then its post) and keeps the session cookie: from now on this client is
    /// signed in. Throws unless the server signed it in.
    public func signUp(at baseURL: URL, username: String = "ada", name: String = "Ada Lovelace") async throws {
        let signUp = baseURL.appendingPathComponent("sign-up")
        _ = try await send("GET", signUp)
        let response = try await send(
            "POST", signUp, form: ["name": name, "username": username, "password": Self.testPassword])
        guard response.status == 303, cookie(named: "sangha_session") != nil else {
            throw SanghaProcessError("Sign-up as \(username) answered \(response.status): \(Self.said(response.body))")
        }
    }

    /// What a page told the person: its alert's and its fields' messages (the head of the page
    /// says nothing), else the body's start.
    static func said(_ body: String) -> String {
        let messages = body.split(separator: "\n").filter {
            $0.contains("class=\"alert-") || $0.contains("class=\"field-error\"")
        }.map { $0.replacing(/<[^>]*>/, with: "").trimmingCharacters(in: .whitespaces) }
        return messages.isEmpty ? String(body.prefix(300)) : messages.joined(separator: " / ")
    }

    /// Signs in as `username` with the test password; answers the response (303 when it worked).
    @discardableResult
    public func signIn(
        at baseURL: URL, username: String = "ada", password: String = HTTPClient.testPassword, next: String? = nil
    )
        async throws -> Response
    {
        let signIn = baseURL.appendingPathComponent("sign-in")
        _ = try await send("GET", signIn)
        var form = ["username": username, "password": password]
        if let next { form["next"] = next }
        return try await send("POST", signIn, form: form)
    }

    /// The value of a cookie the server has set, as the browser keeps it.
    public func cookie(named name: String) -> String? {
        cookies.withLock { $0[name] }
    }

    public init() {}

    /// Sends a request; `headers` replace the client's own (a `Cookie` given here is the only one).
    public func send(_ method: String, _ url: URL, form: [String: String]? = nil, headers: [String: String] = [:])
        async throws -> Response
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        let jar = cookies.withLock { $0 }
        if !jar.isEmpty {
            request.headers.replaceOrAdd(
                name: "Cookie",
                value: jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if var form {
            if form["_csrf"] == nil {
                // As a browser would have it: the token of a page seen with these cookies.
                if formToken.withLock({ $0 }) == nil {
                    let page = jar["sangha_session"] == nil ? "/sign-in" : "/settings"
                    _ = try await send("GET", URL(string: page, relativeTo: url)!.absoluteURL)
                }
                form["_csrf"] = formToken.withLock { $0 }
            }
            var components = URLComponents()
            components.queryItems = form.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            let encoded = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
            request.body = .bytes(ByteBuffer(string: encoded))
            request.headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded")
        }
        let response = try await Self.transport.execute(request, timeout: Self.requestTimeout)
        let body = String(buffer: try await response.body.collect(upTo: 64 << 20))
        var fields: [String: String] = [:]
        for header in response.headers {
            fields[header.name] = fields[header.name].map { "\($0), \(header.value)" } ?? header.value
        }
        if let range = body.range(of: #"name="_csrf" value=""#) {
            formToken.withLock { $0 = String(body[range.upperBound...].prefix { $0 != "\"" }) }
        }
        for setCookie in response.headers["Set-Cookie"] {
            for cookie in HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": setCookie], for: url) {
                // A new session or nonce: the token goes with the page made for the old one.
                if ["sangha_session", "sangha_csrf"].contains(cookie.name) { formToken.withLock { $0 = nil } }
                cookies.withLock { jar in
                    if cookie.value.isEmpty || (cookie.expiresDate.map { $0 < Date() } ?? false) {
                        jar[cookie.name] = nil
                    } else {
                        jar[cookie.name] = cookie.value
                    }
                }
            }
        }
        return Response(status: Int(response.status.code), headers: fields, body: body)
    }
}
