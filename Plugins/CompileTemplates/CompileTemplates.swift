import Foundation
import PackagePlugin

/// Compiles `Templates/*.mustache` into Swift render functions for the target's view models
/// (see `template-compiler`), at build time, whenever a template or a view model changes.
@main
struct CompileTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let templatesDirectory = context.package.directoryURL.appending(path: "Templates")
        var templates: [URL] = []
        if let enumerator = FileManager.default.enumerator(at: templatesDirectory, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where url.pathExtension == "mustache" { templates.append(url) }
        }
        // The view models' sources (their stored properties are what templates name), and this
        // target's own, which say which template each view model renders with.
        var sources = target.sourceFiles(withSuffix: "swift").map(\.url)
        for case .target(let dependency) in target.dependencies {
            guard let module = dependency as? SourceModuleTarget, dependency.name == "SanghaViewModels" else {
                continue
            }
            sources += module.sourceFiles(withSuffix: "swift").map(\.url)
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "CompiledTemplates.swift")
        return [
            .buildCommand(
                displayName: "Compiling templates for \(target.name)",
                executable: try context.tool(named: "template-compiler").url,
                arguments: ["--templates", templatesDirectory.path, "--output", output.path] + sources.map(\.path),
                inputFiles: templates + sources,
                outputFiles: [output]
            )
        ]
    }
}
