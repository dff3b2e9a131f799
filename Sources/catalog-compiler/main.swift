import CatalogCompilerCore
import Foundation

// catalog-compiler --languages DIR --sources DIR --output FILE
//
// Checks Languages/sangha.pot and every Languages/TAG.po, and each area's folder of the same
// (Languages/AREA/area.pot and its TAG.po: a domain) (`Catalog`: nothing missing, no
// placeholder that differs from the English, CLDR's number of plural forms, no message the code
// does not use: a name the Swift under --sources never says) and writes them as Swift
// (`WordsGenerator`). Run by the CompileCatalogs build plugin; its messages name the file and
// line, so a broken translation stops the build there.
func option(_ name: String, from arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
}
var arguments = Array(CommandLine.arguments.dropFirst())
guard let directory = option("--languages", from: &arguments), let sources = option("--sources", from: &arguments),
    let output = option("--output", from: &arguments)
else {
    FileHandle.standardError.write(Data("usage: catalog-compiler --languages DIR --sources DIR --output FILE\n".utf8))
    exit(2)
}

/// Every lowerCamelCase name the Swift files under `directory` say.
func names(under directory: String) -> Set<String> {
    var names: Set<String> = []
    let enumerator = FileManager.default.enumerator(atPath: directory)
    while let path = enumerator?.nextObject() as? String {
        guard path.hasSuffix(".swift"), let text = try? String(contentsOfFile: directory + "/" + path, encoding: .utf8)
        else { continue }
        var word = ""
        for character in text.unicodeScalars {
            if CharacterSet.alphanumerics.contains(character) || character == "_" {
                word.unicodeScalars.append(character)
            } else {
                if word.first?.isLowercase == true { names.insert(word) }
                word = ""
            }
        }
    }
    return names
}

do {
    let root = URL(fileURLWithPath: directory)
    let manager = FileManager.default
    // The root's domain first, then each area's folder in name order.
    let areas = try manager.contentsOfDirectory(atPath: root.path).sorted().map { root.appendingPathComponent($0) }
        .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
    var domains: [Catalog.Domain] = []
    for folder in [root] + areas {
        let names = try manager.contentsOfDirectory(atPath: folder.path).sorted()
        let templates = names.filter { $0.hasSuffix(".pot") }
        guard templates.count == 1 else {
            throw CatalogError(
                file: folder.path, line: 1,
                message: "A language folder has one template (.pot); this has \(templates.count).")
        }
        let languages = try names.filter { $0.hasSuffix(".po") }.map { name in
            let path = folder.appendingPathComponent(name).path
            return (code: String(name.dropLast(3)), text: try String(contentsOfFile: path, encoding: .utf8), file: path)
        }
        let templateFile = folder.appendingPathComponent(templates[0]).path
        domains.append(
            Catalog.Domain(
                template: try String(contentsOfFile: templateFile, encoding: .utf8), templateFile: templateFile,
                languages: languages))
    }
    let catalog = try Catalog(domains: domains, usedNames: names(under: sources))
    let code = WordsGenerator.swift(catalog)
    // Written only when changed, so an unchanged catalog does not rebuild the module.
    if (try? String(contentsOfFile: output, encoding: .utf8)) != code {
        try code.write(toFile: output, atomically: true, encoding: .utf8)
    }
} catch let error as CatalogError {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
