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

    /// `contents` by path under `Public/` (`css/sangha.css`).
    init(contents: [(path: String, bytes: [UInt8])]) {
        for (path, bytes) in contents {
            let digest = Self.digest(bytes)
            let plain = "/" + path
            let hashed = Self.path(plain, digest: digest)
            let body = ByteBuffer(bytes: bytes)
            let type = Self.contentType(of: path)
            let etag = "\"\(digest)\""
            files[plain] = File(body: body, contentType: type, etag: etag, cacheControl: Self.revalidate)
            files[hashed] = File(body: body, contentType: type, etag: etag, cacheControl: Self.immutable)
            digestPaths[plain] = hashed
        }
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

    /// Where the layout links its stylesheet, script and icon.
    public var assets: AssetURLs {
        AssetURLs(
            stylesheet: digestPaths["/css/sangha.css"] ?? AssetURLs.plain.stylesheet,
            script: digestPaths["/js/sangha.js"] ?? AssetURLs.plain.script,
            icon: digestPaths["/favicon.svg"] ?? AssetURLs.plain.icon,
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
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == file.etag
            })
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(file.body.readableBytes)
        let body: ResponseBody = request.method == .head ? .init() : .init(byteBuffer: file.body)
        return Response(status: .ok, headers: headers, body: body)
    }
}
