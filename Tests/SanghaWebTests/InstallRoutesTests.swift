import Foundation
import Hummingbird
import HummingbirdTesting
import SanghaTestSupport
import SanghaViewModels
import Testing

@testable import SanghaWeb

/// What makes Sangha an installable app that opens offline: the manifest, the service worker
/// (with this build's files), the offline page, and script modules named by their digests.
@Suite("Installing Sangha")
struct InstallRoutesTests {
    @Test("The manifest: name, start URL, standalone, colours, and icons that are served (one maskable)")
    func manifest() async throws {
        try await withApp { client in
            let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/manifest+json; charset=utf-8")
                return try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            }
            let fields = try #require(manifest)
            #expect(fields["name"] as? String == "Sangha" && fields["short_name"] as? String == "Sangha")
            #expect(fields["start_url"] as? String == "/" && fields["scope"] as? String == "/")
            #expect(fields["display"] as? String == "standalone")
            #expect(fields["background_color"] as? String == "#f7f5f0")
            let icons = try #require(fields["icons"] as? [[String: String]])
            #expect(icons.map { $0["sizes"] } == ["192x192", "512x512", "512x512"])
            #expect(icons.map { $0["purpose"] } == [nil, nil, "maskable"])
            for icon in icons {
                let src = try #require(icon["src"])
                #expect(src.firstMatch(of: /^\/icons\/[a-z0-9-]+\.[0-9a-f]{16}\.png$/) != nil, "\(src)")
                try await client.execute(uri: src, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "image/png")
                }
            }
        }
    }

    @Test("The service worker: at the root, revalidated, naming every static file of the build by its digest")
    func serviceWorker() async throws {
        try await withApp { client in
            let worker = try await client.execute(uri: "/service-worker.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-cache")
                return String(buffer: response.body)
            }
            let lines = worker.split(separator: "\n", maxSplits: 5, omittingEmptySubsequences: false)
            try #require(lines.count == 6)
            #expect(lines[0].hasPrefix("// Written by Sangha for this build") && lines[1].hasPrefix("// "))
            // Every static file of the build by its digest name, and nothing else (the worker is
            // not one of its own files).
            let assets = try #require(lines[2].wholeMatch(of: /const ASSETS = (\{.*\});/)?.1)
            #expect(
                try JSONDecoder().decode([String: String].self, from: Data(assets.utf8))
                    == StaticFiles.embedded.digestPaths)
            #expect(lines[3] == #"const OFFLINE = "/offline";"#)
            #expect(lines[4] == "")
            // Then its source, its imports naming the modules of this build.
            var source = try String(
                contentsOf: RepositoryPaths.root.appendingPathComponent("Public/js/service-worker.js"), encoding: .utf8)
            for module in ["/js/notifications.js", "/js/outbox.js"] {
                let digest = try #require(StaticFiles.embedded.digestPaths[module])
                source = source.replacing(#"from "\#(module)""#, with: #"from "\#(digest)""#)
            }
            #expect(lines[5] == source)
        }
        // --dev serves none: it would keep the files being edited.
        try await withApp(configuration: AppConfiguration(resourcesDirectory: RepositoryPaths.root, development: true))
        {
            client in
            try await client.execute(uri: "/service-worker.js", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("The offline page names no one, even when fetched signed in")
    func offlinePage() async throws {
        try await withSignedInApp { client in
            // "You are offline.", data-offline; no sangha-person, no Sign out.
            try await client.execute(uri: "/offline", method: .get) { assertResponse($0, named: "offline") }
        }
    }

    @Test("A script module imports its modules by their digest names, so it changes name when they change")
    func moduleDigests() {
        func files(_ forms: String) -> StaticFiles {
            StaticFiles(contents: [
                ("js/sangha.js", Array("import { a } from \"./forms.js\";\n// it's \"./forms.js\"\n".utf8)),
                ("js/forms.js", Array(forms.utf8)),
                ("js/service-worker.js", Array("import { b } from '/js/forms.js';\nself;\n".utf8)),
            ])
        }
        let first = files("export const a = 1;")
        let second = files("export const a = 2;")
        let forms = try! #require(first.digestPaths["/js/forms.js"])
        let script = String(buffer: first.file(at: "/js/sangha.js")!.body)
        #expect(script.hasPrefix("import { a } from \"./\(forms.dropFirst(4))\";\n"))
        // A comment is not an import.
        #expect(script.hasSuffix("// it's \"./forms.js\"\n"))
        #expect(first.digestPaths["/js/sangha.js"] != second.digestPaths["/js/sangha.js"])
        let sangha = try! #require(first.digestPaths["/js/sangha.js"])
        #expect(
            first.serviceWorker == """
                // Written by Sangha for this build: its static files (each plain name with the name pages
                // link, by a digest of its content) and the page shown offline.
                const ASSETS = {"/js/forms.js":"\(forms)","/js/sangha.js":"\(sangha)"};
                const OFFLINE = "/offline";

                import { b } from '\(forms)';
                self;

                """)
        #expect(first.file(at: "/js/service-worker.js") == nil)
    }
}
