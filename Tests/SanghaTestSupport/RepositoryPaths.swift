import Foundation

/// Where the package lives, for tests that need its templates, public files or built binary.
public enum RepositoryPaths {
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/SanghaTestSupport/RepositoryPaths.swift → the package folder
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// A new empty folder under the system's temporary directory.
    public static func temporaryDirectory(_ prefix: String = "sangha-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
