import SanghaFixtures
import SanghaTestSupport
import SanghaWeb
import SnapshotTesting
import Testing

/// Every fixture of the registry, rendered with the real templates and compared with its
/// stored snapshot in `__Snapshots__/FixtureSnapshotTests/`. `make snapshots` records them again.
@Suite("HTML snapshots of every fixture")
struct FixtureSnapshotTests {
    @Test("Each fixture renders as its snapshot", arguments: FixtureRegistry.all.map(\.name))
    func fixture(name: String) async throws {
        let fixture = try #require(FixtureRegistry.all.first { $0.name == name })
        let html = try await TestRenderer.make().render(fixture.value)
        assertSnapshot(of: html, as: .html, named: name, testName: "fixture")
    }

    @Test("Fixture names are unique, so no snapshot overwrites another")
    func uniqueNames() {
        let names = FixtureRegistry.all.map(\.name)
        #expect(Set(names).count == names.count)
    }

    @Test("Hostile strings reach the page escaped, never as markup")
    func escaping() async throws {
        let renderer = try await TestRenderer.make()
        let hostile = FixtureRegistry.all.filter { $0.name.hasSuffix("-hostile") }
        #expect(hostile.count >= 5)
        for fixture in hostile {
            let name = fixture.name
            let html = renderer.render(fixture.value)
            #expect(!html.contains("<script>"), "\(name) let a script tag through")
            #expect(!html.contains("<b>"), "\(name) let markup through")
            #expect(html.contains("&lt;script&gt;"), "\(name) does not show the hostile text")
        }
    }
}

/// The templates compiled to Swift at build time must write exactly what swift-mustache renders
/// from the same files, for every fixture, hostile strings included.
@Suite("Compiled templates against swift-mustache")
struct CompiledTemplateTests {
    @Test("Each fixture: compiled bytes equal swift-mustache's", arguments: FixtureRegistry.all.map(\.name))
    func sameBytes(name: String) async throws {
        let fixture = try #require(FixtureRegistry.all.first { $0.name == name })
        let reference = try await TestRenderer.make().render(fixture.value)
        let compiled = fixture.value.compiledHTML()
        if compiled != reference {
            let referenceLines = reference.components(separatedBy: "\n")
            let compiledLines = compiled.components(separatedBy: "\n")
            let line =
                zip(referenceLines, compiledLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(referenceLines.count, compiledLines.count)
            let expected = line < referenceLines.count ? referenceLines[line] : "(end)"
            let actual = line < compiledLines.count ? compiledLines[line] : "(end)"
            Issue.record("\(name) differs at line \(line + 1):\nmustache: \(expected)\ncompiled: \(actual)")
        }
        // Rendered again, what its view models keep (`KeptRendering`: the history's drawing and
        // table, /admin's rows, each element of a list) is written from their kept bytes: the
        // same page.
        #expect(fixture.value.compiledHTML() == compiled)
    }

    @Test("The server renders with the compiled templates; --dev with swift-mustache")
    func rendererModes() async throws {
        let directory = RepositoryPaths.root.appendingPathComponent("Templates")
        let templates = try await MustacheTemplates(directory: directory, reload: true)
        let development = PageRenderer(mustache: templates, signer: TestDependencies.signer)
        let page = FixtureRegistry.all[0].value
        #expect(PageRenderer.compiled(signer: TestDependencies.signer).html(page) == page.compiledHTML())
        #expect(development.html(page) == templates.render(page))
    }
}
