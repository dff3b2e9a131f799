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
            for (plain, digest) in StaticFiles.embedded.digestPaths {
                #expect(worker.contains("\"\(plain)\":\"\(digest)\""), "\(plain)")
            }
            #expect(!worker.contains("/js/service-worker"), "the worker is not one of its own files")
            #expect(worker.contains(#"const OFFLINE = "/offline";"#))
            // Its import names the module of this build.
            let outbox = try #require(StaticFiles.embedded.digestPaths["/js/outbox.js"])
            #expect(worker.contains(#"from "\#(outbox)""#))
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
            try await client.execute(uri: "/offline", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                #expect(html.contains("<h1>You are offline.</h1>"))
                #expect(html.contains("data-offline"))
                #expect(!html.contains("sangha-person") && !html.contains("Sign out"))
            }
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
        #expect(first.serviceWorker.contains("import { b } from '\(forms)';"))
        #expect(first.file(at: "/js/service-worker.js") == nil)
    }
}
