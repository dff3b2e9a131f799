import Foundation
import TemplateCompilerCore

// template-compiler --templates DIR --catalog FILE --output FILE
//
// Compiles every template that a view model renders with (the catalog's `templates`, read from
// `extension X: Page/Renderable { static let template = "…" }` in the sources) into Swift render
// functions. Run by the CompileTemplates build plugin; its messages name the template's file
// and line.
/// The value after `name`, taken out of `arguments`.
func option(_ name: String, from arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
}
var arguments = Array(CommandLine.arguments.dropFirst())
guard let templatesDirectory = option("--templates", from: &arguments),
    let catalogFile = option("--catalog", from: &arguments),
    let output = option("--output", from: &arguments)
else {
    FileHandle.standardError.write(Data("usage: template-compiler --templates DIR --catalog FILE --output FILE\n".utf8))
    exit(2)
}

do {
    let catalog: ViewModelCatalog
    do {
        catalog = try ViewModelCatalog(fileText: try String(contentsOfFile: catalogFile, encoding: .utf8))
    } catch {
        throw TemplateError(
            file: catalogFile, line: 1, message: "The view model catalog cannot be read (\(error)); run `make catalog`."
        )
    }
    var templates: [String: [TemplateNode]] = [:]
    var files: [String: String] = [:]
    let root = URL(fileURLWithPath: templatesDirectory).standardizedFileURL.path
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let path = enumerator?.nextObject() as? String {
        guard path.hasSuffix(".mustache") else { continue }
        let name = String(path.dropLast(".mustache".count))
        let file = root + "/" + path
        files[name] = file
        templates[name] = try TemplateParser.parse(try String(contentsOfFile: file, encoding: .utf8), file: file)
    }
    var generator = RenderFunctionGenerator(catalog: catalog, templates: templates, files: files)
    let code = try generator.generate(imports: ["Hummingbird", "SanghaViewModels"])
    // Written only when changed, so an unchanged template does not rebuild the module.
    if (try? String(contentsOfFile: output, encoding: .utf8)) != code {
        try code.write(toFile: output, atomically: true, encoding: .utf8)
    }
} catch let error as TemplateError {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
