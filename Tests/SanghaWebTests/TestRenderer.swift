import Foundation
import SanghaTestSupport
import SanghaWeb

enum TestRenderer {
    /// The app's own templates, loaded as `sangha serve` loads them.
    static func make() async throws -> PageRenderer {
        try await PageRenderer(templatesDirectory: RepositoryPaths.root.appendingPathComponent("Templates"))
    }
}
