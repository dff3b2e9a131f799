import Foundation
import Hummingbird
import SanghaFixtures
import SanghaWeb

/// `sangha-bench serve-pages --port PORT FILE…`: each file's bytes from memory at
/// `GET /_bench/NAME`, through the app's own middleware (`buildRouter`) on fixture parts: the
/// server's ceiling for a page of that size, which `make bench` puts beside the real page.
enum BenchPageServer {
    static func run(_ arguments: [String]) async throws {
        var arguments = arguments
        var port = 8090
        if let index = arguments.firstIndex(of: "--port"), index + 1 < arguments.count,
            let value = Int(arguments[index + 1])
        {
            port = value
            arguments.removeSubrange(index...index + 1)
        }
        let router = try buildRouter(
            configuration: AppConfiguration(port: port),
            dependencies: try FixtureDependencies.make(),
            renderer: .compiled(signer: .random()))
        for path in arguments {
            let file = URL(fileURLWithPath: path)
            let body = ByteBuffer(bytes: try Data(contentsOf: file))
            router.get("_bench/\(file.lastPathComponent)") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: body))
            }
        }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
            .runService()
    }
}
