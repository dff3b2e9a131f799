import Foundation
import PackagePlugin

/// Compiles `Templates/*.mustache` into Swift render functions for the target's view models
/// (see `template-compiler`), at build time, whenever a template or the view model catalog
/// (`Templates/view-models.json`, written by `make catalog`) changes.
@main
struct CompileTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templatesDirectory = context.package.directoryURL.appending(path: "Templates")
        var templates: [URL] = []
        if let enumerator = FileManager.default.enumerator(at: templatesDirectory, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where url.pathExtension == "mustache" { templates.append(url) }
        }
        let catalog = templatesDirectory.appending(path: "view-models.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "CompiledTemplates.swift")
        return [
            .buildCommand(
                displayName: "Compiling templates for \(target.name)",
                executable: try context.tool(named: "template-compiler").url,
                arguments: [
                    "--templates", templatesDirectory.path, "--catalog", catalog.path, "--output", output.path,
                ],
                inputFiles: templates + [catalog],
                outputFiles: [output]
            )
        ]
    }
}
