import Foundation
import PackagePlugin

/// Compiles `Languages/sangha.pot` and each language's `Languages/TAG.po`, with each area's folder
/// of the same (`Languages/Profiles/`), into the `Words` of
/// the target (see `catalog-compiler`), at build time, whenever a catalog or a Swift source
/// changes (the sources, for the check that every message is one the code uses).
@main
struct CompileCatalogs: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let languages = context.package.directoryURL.appending(path: "Languages")
        let sources = context.package.directoryURL.appending(path: "Sources")
        var inputs: [URL] = []
        for folder in [languages, sources] {
            guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in enumerator where ["po", "pot", "swift"].contains(url.pathExtension) {
                inputs.append(url)
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "CompiledWords.swift")
        return [
            .buildCommand(
                displayName: "Compiling the language catalogs for \(target.name)",
                executable: try context.tool(named: "catalog-compiler").url,
                arguments: ["--languages", languages.path, "--sources", sources.path, "--output", output.path],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
