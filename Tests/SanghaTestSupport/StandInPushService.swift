import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// A push service on loopback, as the browsers' are to Sangha: it takes `POST /push/NAME` and
/// answers what the test prepared for NAME (201 when nothing), keeping every request it got.
/// `SilentPushService` is the one that never answers.
public final class StandInPushService: Sendable {
    public struct Received: Sendable {
        public let name: String
        public let headers: [String: String]
        public let body: [UInt8]
    }

    /// An answer: its status and headers (`Retry-After`).
    public struct Answer: Sendable {
        public let status: Int
        public let headers: [String: String]
        public init(_ status: Int, headers: [String: String] = [:]) { (self.status, self.headers) = (status, headers) }
    }

    public let port: Int
    public var origin: String { "http://127.0.0.1:\(port)" }
    private let task: Task<Void, any Error>
    private let state: Mutex<(received: [Received], answers: [String: [Answer]])>

    private init(port: Int, task: Task<Void, any Error>) {
        (self.port, self.task) = (port, task)
        state = Mutex(([], [:]))
    }

    public func endpoint(_ name: String) -> String { "\(origin)/push/\(name)" }

    /// NAME's next answers, in order; then 201.
    public func answer(_ name: String, with answers: [Answer]) {
        state.withLock { $0.answers[name, default: []] += answers }
    }

    /// What was posted, to NAME or to any.
    public func received(_ name: String? = nil) -> [Received] {
        state.withLock { state in state.received.filter { name == nil || $0.name == name } }
    }

    /// Waits until `count` posts have come (to NAME, or to any), for at most `bound`: a generous
    /// bound, never a time the test asserts.
    @discardableResult
    public func waitFor(_ count: Int, to name: String? = nil, bound: Duration = .seconds(20)) async -> [Received] {
        let deadline = ContinuousClock.now + bound
        while received(name).count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return received(name)
    }

    fileprivate func take(_ name: String, headers: [String: String], body: [UInt8]) -> Answer {
        state.withLock { state in
            state.received.append(Received(name: name, headers: headers, body: body))
            guard var queue = state.answers[name], !queue.isEmpty else { return Answer(201) }
            let answer = queue.removeFirst()
            state.answers[name] = queue
            return answer
        }
    }

    public static func start() async throws -> StandInPushService {
        let box = Mutex<StandInPushService?>(nil)
        let started = PushPortPromise()
        let router = Router()
        router.post("/push/{name}") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let body = try await request.body.collect(upTo: 1 << 16)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
            guard let service = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            let answer = service.take(name, headers: headers, body: Array(body.readableBytesView))
            var response = Response(status: HTTPResponse.Status(code: answer.status))
            for (field, value) in answer.headers {
                if let name = HTTPField.Name(field) { response.headers[name] = value }
            }
            return response
        }
        var quiet = Logger(label: "stand-in-push-service")
        quiet.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in started.fulfil(channel.localAddress?.port ?? 0) }, logger: quiet)
        let task = Task { try await app.runService() }
        let service = StandInPushService(port: await started.port, task: task)
        box.withLock { $0 = service }
        return service
    }

    public func stop() { task.cancel() }
}

/// A push service that takes connections and never answers: the kernel accepts them (the listen
/// queue), nothing reads or writes. Counts the connections it was asked for.
public final class SilentPushService: Sendable {
    public let port: Int
    private let socket: Int32
    private final class Held: Sendable {
        let accepted = Mutex(0)
        let connections = Mutex<[Int32]>([])
    }
    private let held = Held()

    public var origin: String { "http://127.0.0.1:\(port)" }
    public func endpoint(_ name: String) -> String { "\(origin)/push/\(name)" }
    public var connections: Int { held.accepted.withLock { $0 } }

    public init() throws {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        guard bound == 0, listen(socket, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        // Accepts on a thread of its own (never the cooperative pool), holding each connection.
        let held = held
        Thread.detachNewThread {
            while true {
                let connection = accept(socket, nil, nil)
                if connection < 0 { return }
                held.accepted.withLock { $0 += 1 }
                held.connections.withLock { $0.append(connection) }
            }
        }
    }

    public func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
        for connection in held.connections.withLock({ $0 }) { close(connection) }
    }
}

private final class PushPortPromise: Sendable {
    private let state = Mutex<(port: Int?, waiting: [CheckedContinuation<Int, Never>])>((nil, []))

    func fulfil(_ port: Int) {
        let waiting = state.withLock { state in
            state.port = port
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume(returning: port) }
    }

    var port: Int {
        get async {
            await withCheckedContinuation { continuation in
                let port = state.withLock { state -> Int? in
                    if let port = state.port { return port }
                    state.waiting.append(continuation)
                    return nil
                }
                if let port { continuation.resume(returning: port) }
            }
        }
    }
}
