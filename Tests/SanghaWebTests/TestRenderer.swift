import Foundation
import SanghaTestSupport
import SanghaWeb

enum TestRenderer {
    /// swift-mustache with the app's own templates: the reference the compiled ones must match.
    static func make() async throws -> MustacheTemplates {
        try await MustacheTemplates(directory: RepositoryPaths.root.appendingPathComponent("Templates"))
    }
}
