import Foundation
import TemplateCompilerCore
import ViewModelScanner

// view-model-catalog [PACKAGE_DIR]  (`make catalog`)
//
// Writes Templates/view-models.json: the view models' stored properties read from their source,
// which the build's template compiler needs. Run after changing a view model that a template
// shows; the test suite fails while the file is out of date.
let root = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath)
do {
    let text = try ViewModelCatalog.scanning(package: root).fileText()
    let file = root.appending(path: ViewModelCatalog.filePath)
    if (try? String(contentsOf: file, encoding: .utf8)) == text {
        print("\(ViewModelCatalog.filePath) is up to date.")
    } else {
        try text.write(to: file, atomically: true, encoding: .utf8)
        print("Wrote \(ViewModelCatalog.filePath).")
    }
} catch {
    FileHandle.standardError.write(Data("view-model-catalog: \(error)\n".utf8))
    exit(1)
}
