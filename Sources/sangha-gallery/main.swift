import Foundation
import Hummingbird
import SanghaFixtures
import SanghaWeb

// sangha-gallery [--port PORT] [PACKAGE_DIR]  (`make gallery`)
//
// Every fixture of the registry at http://127.0.0.1:PORT/_gallery, rendered by swift-mustache
// from PACKAGE_DIR/Templates as they are on disk now (edit a template and reload), with
// PACKAGE_DIR/Public and the app's own middleware around it, on SQLite in memory: the
// gallery shows fixtures, never data. The browser tests audit every page it serves.
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        USAGE: sangha-gallery [--port PORT] [PACKAGE_DIR]

        Serves every fixture at http://127.0.0.1:PORT/_gallery (default port 8090), rendered by
        swift-mustache from PACKAGE_DIR/Templates as they are on disk (default: the current folder).
        """)
    exit(0)
}
if let unknown = arguments.first(where: { $0.hasPrefix("-") && $0 != "--port" }) {
    FileHandle.standardError.write(Data("sangha-gallery: unknown option \(unknown) (see --help)\n".utf8))
    exit(64)
}
var port = 8090
if let index = arguments.firstIndex(of: "--port"), index + 1 < arguments.count, let value = Int(arguments[index + 1]) {
    port = value
    arguments.removeSubrange(index...index + 1)
}
let directory = URL(fileURLWithPath: arguments.first ?? FileManager.default.currentDirectoryPath)
guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("Templates").path) else {
    FileHandle.standardError.write(Data("sangha-gallery: \(directory.path) has no Templates/ (see --help)\n".utf8))
    exit(66)
}

let configuration = AppConfiguration(port: port, resourcesDirectory: directory, development: true)
let dependencies = try FixtureDependencies.make()
let renderer = PageRenderer(
    mustache: try await MustacheTemplates(directory: directory.appendingPathComponent("Templates"), reload: true),
    signer: dependencies.signer)
let router = try buildRouter(
    configuration: configuration,
    dependencies: dependencies,
    renderer: renderer)
try await GalleryRoutes(
    fixtures: FixtureRegistry.all, renderer: renderer, templates: directory.appendingPathComponent("Templates")
).addRoutes(to: router)
print("The gallery: http://127.0.0.1:\(port)/_gallery")
try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
    .runService()
