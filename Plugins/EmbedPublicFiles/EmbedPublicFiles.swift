import Foundation
import PackagePlugin

/// Builds `Public/` into the target (see `embed-files`), so the server serves its static files
/// from memory whatever folder it runs in, and rebuilds when one changes.
@main
struct EmbedPublicFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let publicDirectory = context.package.directoryURL.appending(path: "Public")
        var files: [URL] = []
        if let enumerator = FileManager.default.enumerator(
            at: publicDirectory, includingPropertiesForKeys: [.isRegularFileKey])
        {
            for case let url as URL in enumerator
            where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
                && !url.lastPathComponent.hasPrefix(".")
            {
                files.append(url)
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPublicFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding Public/ in \(target.name)",
                executable: try context.tool(named: "embed-files").url,
                arguments: ["--root", publicDirectory.path, "--output", output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
