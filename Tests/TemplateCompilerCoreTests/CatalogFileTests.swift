import Foundation
import TemplateCompilerCore
import Testing
import ViewModelScanner

@Suite("The view model catalog file")
struct CatalogFileTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("Templates/view-models.json is what the view models' sources declare (else run `make catalog`)")
    func fileIsCurrent() throws {
        let scanned = try ViewModelCatalog.scanning(package: Self.packageRoot)
        let file = try String(
            contentsOf: Self.packageRoot.appending(path: ViewModelCatalog.filePath), encoding: .utf8)
        #expect(scanned.areas.count > 40, "the scan found the view models and their areas")
        #expect(
            try scanned.fileText() == file,
            "Templates/view-models.json is out of date: run `make catalog` and commit it.")
    }

    @Test("The file reads back as the catalog it was written from")
    func roundTrip() throws {
        var catalog = ViewModelCatalog()
        catalog.scan(
            source: """
                public struct Page { public let rows: [Row]?; public let counts: [String: Int]; public let kind: Kind }
                public struct Row { public let name: String }
                public enum Kind: String { case a }
                """, area: "Pages")
        let text = try catalog.fileText()
        #expect(try ViewModelCatalog(fileText: text).fileText() == text)
        #expect(try ViewModelCatalog(fileText: text).areas == ["Page": "Pages", "Row": "Pages"])
        #expect(text.contains("\"rows: [Row]?\""))
        #expect(try ViewModelCatalog(fileText: text).type(of: "counts", in: "Page") == .named("[String: Int]"))
    }

    @Test("A line that is not `name: Type` is refused")
    func malformed() {
        #expect(throws: (any Error).self) {
            try ViewModelCatalog(fileText: #"{"areas": {}, "stringEnums": [], "types": {"A": ["name"]}}"#)
        }
    }
}
