import Foundation
import Hummingbird
import SanghaCore
import SanghaViewModels

/// The static files (`Public/`), held in memory, each under two names: its plain name
/// (`/css/sangha.css`) and a name with a digest of its content (`/css/sangha.5e1c0a3b9d2f7e64.css`).
///
/// The digest name changes whenever the file does, so it can be cached for a year
/// (`immutable`); the pages link to it. The plain name stays for whatever links to it from
/// outside, revalidated by its ETag.
public struct StaticFiles: Sendable {
    struct File: Sendable {
        let body: ByteBuffer
        let contentType: String
        let etag: String
        let cacheControl: String
    }

    static let immutable = "public, max-age=31536000, immutable"
    static let revalidate = "no-cache"

    private(set) var files: [String: File] = [:]
    /// The digest name of each plain one: `/css/sangha.css` → `/css/sangha.5e1c….css`.
    public private(set) var digestPaths: [String: String] = [:]
    /// `Public/js/service-worker.js`, which is not served as it is: `serviceWorker` writes this
    /// build's files into it, and it is served at the root (its scope is the whole site).
    let workerSource: String

    /// The service worker's source under `Public/`. It imports by absolute paths (it is served
    /// from another folder than its own).
    static let workerPath = "js/service-worker.js"

    /// `contents` by path under `Public/` (`css/sangha.css`).
    ///
    /// A script module names the modules it imports by their digest names (`./forms.js` becomes
    /// `./forms.1a2b….js`), so its own digest changes when any of them does: a page's script
    /// and everything it imports are of one build, and a browser or the service worker may keep
    /// them all for a year.
    init(contents: [(path: String, bytes: [UInt8])]) {
        let sources = Dictionary(contents.map { ("/" + $0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        var built: [String: (bytes: [UInt8], digest: String)] = [:]
        func build(_ plain: String, importing: Set<String> = []) -> (bytes: [UInt8], digest: String) {
            if let done = built[plain] { return done }
            var bytes = sources[plain] ?? []
            if plain.hasSuffix(".js"), !importing.contains(plain) {
                bytes = ModuleImports.rewrite(bytes, of: plain) { imported in
                    guard sources[imported] != nil else { return nil }
                    return Self.path(imported, digest: build(imported, importing: importing.union([plain])).digest)
                }
            }
            let result = (bytes, Self.digest(bytes))
            built[plain] = result
            return result
        }
        for plain in sources.keys.sorted() where plain != "/" + Self.workerPath {
            let (bytes, digest) = build(plain)
            let hashed = Self.path(plain, digest: digest)
            let body = ByteBuffer(bytes: bytes)
            let type = Self.contentType(of: plain)
            let etag = "\"\(digest)\""
            files[plain] = File(body: body, contentType: type, etag: etag, cacheControl: Self.revalidate)
            files[hashed] = File(body: body, contentType: type, etag: etag, cacheControl: Self.immutable)
            digestPaths[plain] = hashed
        }
        let digests = digestPaths
        let worker = sources["/" + Self.workerPath].map {
            ModuleImports.rewrite($0, of: "/" + Self.workerPath) { imported in digests[imported] }
        }
        workerSource = worker.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The files built into the binary.
    public static let embedded = StaticFiles(
        contents: EmbeddedPublicFiles.files.map { ($0.path, Array(Data(base64Encoded: $0.base64) ?? Data())) })

    /// The files under `directory`, read once (`--resources-dir`).
    public static func directory(_ directory: URL) throws -> StaticFiles {
        let root = directory.standardizedFileURL.path
        var contents: [(String, [UInt8])] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root + "/" + path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                !(path as NSString).lastPathComponent.hasPrefix(".")
            else { continue }
            contents.append((path, Array(try Data(contentsOf: URL(fileURLWithPath: full)))))
        }
        return StaticFiles(contents: contents)
    }

    /// Where the layout links its stylesheet, script and icons.
    public var assets: AssetURLs {
        AssetURLs(
            stylesheet: digestPaths["/css/sangha.css"] ?? AssetURLs.plain.stylesheet,
            script: digestPaths["/js/sangha.js"] ?? AssetURLs.plain.script,
            icon: digestPaths["/favicon.svg"] ?? AssetURLs.plain.icon,
            touchIcon: digestPaths[AssetURLs.plain.touchIcon] ?? AssetURLs.plain.touchIcon,
            sounds: Dictionary(
                uniqueKeysWithValues: SoundCatalogue.names.compactMap { name in
                    digestPaths[SoundCatalogue.path(of: name)].map { (name, $0) }
                })
        )
    }

    func file(at path: String) -> File? { files[path] }

    /// 64-bit FNV-1a of the bytes, hex: it only has to change when the file does, not resist
    /// an attacker, and needs no cryptography library.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `/css/sangha.css` with `digest` before its extension.
    static func path(_ path: String, digest: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return path + "." + digest }
        return path[..<dot] + "." + digest + path[dot...]
    }

    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        case "wav": "audio/wav"
        case "ogg", "oga", "opus": "audio/ogg"
        case "mp3": "audio/mpeg"
        case "m4a": "audio/mp4"
        default: "application/octet-stream"
        }
    }
}

/// Serves `StaticFiles` from memory to GET and HEAD, before any cookie or page context is made:
/// a stylesheet needs neither. `If-None-Match` with the file's ETag gets 304.
struct StaticFileMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: StaticFiles

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .get || request.method == .head, let file = files.file(at: request.uri.path) else {
            return try await next(request, context)
        }
        var headers: HTTPFields = [
            .contentType: file.contentType,
            .cacheControl: file.cacheControl,
            .eTag: file.etag,
        ]
        if IfNoneMatch.matches(request, etag: file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(file.body.readableBytes)
        let body: ResponseBody = request.method == .head ? .init() : .init(byteBuffer: file.body)
        return Response(status: .ok, headers: headers, body: body)
    }
}

extension StaticFiles {
    /// `/service-worker.js`: `Public/service-worker.js` after a first line that names this
    /// build's static files (each plain name with its digest name, which the pages link) and
    /// the offline page. Its bytes change with any file's, so browsers install the new worker,
    /// which keeps the new files.
    public var serviceWorker: String {
        let assets = digestPaths.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }
        return "// Written by Sangha for this build: its static files (each plain name with the name pages\n"
            + "// link, by a digest of its content) and the page shown offline.\n"
            + "const ASSETS = {\(assets.joined(separator: ","))};\n"
            + "const OFFLINE = \"\(Paths.offline.url)\";\n\n" + workerSource
    }

    /// `/manifest.webmanifest`: what a browser installs.
    public var manifest: String {
        func icon(_ path: String, _ size: Int, maskable: Bool = false) -> WebAppManifest.Icon {
            WebAppManifest.Icon(
                src: digestPaths[path] ?? path, sizes: "\(size)x\(size)", type: "image/png",
                purpose: maskable ? "maskable" : nil)
        }
        let manifest = WebAppManifest(
            icons: [
                icon("/icons/icon-192.png", 192), icon("/icons/icon-512.png", 512),
                icon("/icons/icon-maskable-512.png", 512, maskable: true),
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(manifest)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// The web app manifest (W3C Web Application Manifest): Sangha opens as an app of its own,
/// from the home page, in the page's colours.
struct WebAppManifest: Encodable {
    struct Icon: Encodable {
        let src: String
        let sizes: String
        let type: String
        let purpose: String?
    }

    let name = "Sangha"
    let shortName = "Sangha"
    let description = "Meditation profiles, sits with real bells, your practice log, and your group's sits."
    let startURL = Paths.home.url
    let scope = Paths.home.url
    let display = "standalone"
    // --bg of Public/css/sangha.css: the splash screen and the title bar match the page.
    let backgroundColor = "#f7f5f0"
    let themeColor = "#f7f5f0"
    let icons: [Icon]

    enum CodingKeys: String, CodingKey {
        case name, description, scope, display, icons
        case shortName = "short_name"
        case startURL = "start_url"
        case backgroundColor = "background_color"
        case themeColor = "theme_color"
    }
}
