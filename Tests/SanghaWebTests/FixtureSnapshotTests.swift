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
        let html = try await TestRenderer.make().html(fixture.value)
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
            let html = renderer.html(fixture.value)
            #expect(!html.contains("<script>"), "\(name) let a script tag through")
            #expect(!html.contains("<b>"), "\(name) let markup through")
            #expect(html.contains("&lt;script&gt;"), "\(name) does not show the hostile text")
        }
    }
}
