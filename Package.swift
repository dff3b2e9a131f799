// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Sangha",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "sangha", targets: ["sangha"]),
        .executable(name: "sangha-bench", targets: ["sangha-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // What HummingbirdTesting is built on; the end-to-end tests' HTTP client uses it directly.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.30.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        // Already resolved for Hummingbird; named so the app can run the embedded FriendService
        // beside the web server in one service group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        // Resolved for Hummingbird; named for NIOCore's SocketAddress (who asked for /metrics).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        // Resolved for Hummingbird; named for its HTTP/1 to HTTP-types codec, before which Sangha
        // reads an absolute-form request target's host.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Metrics: swift-metrics is already resolved for Hummingbird; swift-prometheus (two small
        // modules over it and swift-atomics) writes them in Prometheus's text format at /metrics.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.9.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // People: HummingbirdBcrypt hashes passwords (a small C bcrypt; the package's other
        // modules are not built). swift-crypto, already built for postgres-nio, digests
        // sign-in session ids so the database never holds a usable cookie.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // The ID tokens of the group's identity provider (OpenID Connect): JWS signatures
        // (RS256, ES256) checked against its JWKS. Built on swift-crypto and swift-certificates,
        // which the app builds already.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        // multipart/form-data, for the history's import (a file field): Hummingbird has none.
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        // base64url (RFC 4648 §5): already built for hummingbird-auth and jwt-kit.
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
    ],
    targets: [
        // Models, validation and the protocols the app depends on. Foundation only. The common
        // passwords a password must not be are a text file, embedded in the code (no bundle to
        // ship beside the binary).
        // Everything Sangha says to a person (`Words`) is compiled into it from Languages/*.po by
        // the CompileCatalogs plugin, which refuses a missing or broken translation.
        .target(
            name: "SanghaCore", resources: [.embedInCode("Resources/common-passwords.txt")],
            plugins: ["CompileCatalogs"]),
        // Page and component view models, formatters and fixtures. SanghaCore only.
        .target(name: "SanghaViewModels", dependencies: ["SanghaCore"]),
        // What both stores share and the domain does not: what a process keeps in memory of the
        // database (`Memo`), the segments' JSON text with its decode memo, and the throttle of the
        // saved friends list's writes.
        .target(name: "SanghaStoreSupport", dependencies: ["SanghaCore"]),
        // GRDB/SQLite implementations of SanghaCore's repositories.
        .target(
            name: "SanghaStore",
            dependencies: [
                "SanghaCore", "SanghaStoreSupport", "SanghaTokens", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's own functions, for the few reads done byte by byte (`StoredDate`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // PostgreSQL implementations of the same repositories, for many instances on one database.
        .target(
            name: "SanghaPostgres",
            dependencies: [
                "SanghaCore",
                "Resilience",
                "SanghaStoreSupport",
                "SanghaTokens",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // A circuit breaker: a remote server that does not answer stops being called for a while
        // (the FriendService, PostgreSQL).
        .target(
            name: "Resilience",
            dependencies: [
                .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // The API layer: a URLSession (libcurl) client of the FriendService API.
        .target(
            name: "FriendServiceClient",
            dependencies: [
                "SanghaCore", "Resilience", .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What every target that handles a token needs, written once: base64url (by
        // ExtrasBase64), comparing a secret in constant time, and a secret's random bytes. Its own target, below both
        // SanghaOIDC and SanghaWeb (and whatever else will send or read a token), where SanghaCore
        // stays Foundation only and SanghaWeb cannot be imported by SanghaOIDC.
        .target(
            name: "SanghaTokens", dependencies: [.product(name: "ExtrasBase64", package: "swift-extras-base64")]),
        // Signing in with the group's identity provider: an OpenID Connect relying party over
        // URLSession, its ID tokens verified by jwt-kit.
        .target(
            name: "SanghaOIDC",
            dependencies: [
                "SanghaTokens",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Web Push as the server sends it: RFC 8291's encryption, RFC 8292's VAPID, RFC 8030's
        // posts to the browsers' push services (AsyncHTTPClient), which subscriptions are taken,
        // and the background sender with its retries and a circuit breaker per push service.
        .target(
            name: "SanghaPush",
            dependencies: [
                "Resilience",
                "SanghaTokens",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The reference FriendService, SQLite-backed.
        // What both servers share at the HTTP level: only their own host names, and an
        // absolute-form request target's host judged like `Host`.
        .target(
            name: "SanghaHTTP",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]
        ),
        .target(
            name: "FriendServiceServer",
            dependencies: [
                "SanghaHTTP",
                "SanghaCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The Hummingbird application: routes, middleware, rendering, Dependencies.
        .target(
            name: "SanghaWeb",
            dependencies: [
                // `MarkupPlace`: swift-mustache's pages set names apart where the compiler does.
                "TemplateMarkup",
                "SanghaHTTP",
                "SanghaOIDC",
                "SanghaTokens",
                "SanghaPush",
                "SanghaCore",
                "SanghaViewModels",
                "SanghaStoreSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            plugins: ["CompileTemplates", "EmbedPublicFiles"]
        ),
        // Compiles Templates/*.mustache into Swift render functions at build time, from the view
        // model catalog Templates/view-models.json. Foundation only, so no build of the app
        // compiles SwiftSyntax.
        .target(name: "TemplateCompilerCore", dependencies: ["TemplateMarkup"]),
        // Where a template's text stands in a page's HTML (`MarkupPlace`): the compiler's rule,
        // which the server's swift-mustache pages (`--dev`) follow too, without the compiler.
        .target(name: "TemplateMarkup"),
        .executableTarget(name: "template-compiler", dependencies: ["TemplateCompilerCore"]),
        // Reads the catalog from the view models' Swift source with SwiftSyntax: `make catalog`
        // writes the file, and the test suite checks it is current. Never part of the app's build.
        .target(
            name: "ViewModelScanner",
            dependencies: [
                "TemplateCompilerCore",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .executableTarget(name: "view-model-catalog", dependencies: ["TemplateCompilerCore", "ViewModelScanner"]),
        .plugin(name: "CompileTemplates", capability: .buildTool(), dependencies: ["template-compiler"]),
        // Checks the language catalogs (Languages/*.po) and compiles them into Swift at build time.
        // Foundation only, like the template compiler.
        .target(name: "CatalogCompilerCore", dependencies: ["TemplateCompilerCore"]),
        .executableTarget(name: "catalog-compiler", dependencies: ["CatalogCompilerCore"]),
        .plugin(name: "CompileCatalogs", capability: .buildTool(), dependencies: ["catalog-compiler"]),
        // Builds Public/ into SanghaWeb, so `sangha serve` runs from any folder.
        .executableTarget(name: "embed-files"),
        .plugin(name: "EmbedPublicFiles", capability: .buildTool(), dependencies: ["embed-files"]),
        // glibc's <malloc.h>, for the cap on malloc's arenas (`MallocArenas`).
        .systemLibrary(name: "CGlibcMalloc"),
        // The command line: `sangha serve`, `sangha friend-service`.
        .executableTarget(
            name: "sangha",
            dependencies: [
                "SanghaCore",
                "CGlibcMalloc",
                "SanghaWeb",
                "SanghaViewModels",
                "SanghaStore",
                "SanghaPostgres",
                "FriendServiceClient",
                "FriendServiceServer",
                "Resilience",
                "SanghaOIDC",
                "SanghaPush",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),

        // Fakes and helpers shared by the test targets; never linked into the app.
        .target(
            name: "SanghaTestSupport",
            dependencies: [
                "SanghaCore", "SanghaStoreSupport",
                // The app's own stores, on SQLite in memory, that route and view-model tests run on.
                "SanghaStore", .product(name: "GRDB", package: "GRDB.swift"),
                // Already built for HummingbirdTesting: the end-to-end tests' HTTP client.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The OpenID provider the sign-in tests talk to.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/SanghaTestSupport"),
        // Every page and component in each of its named states (`FixtureRegistry`): the snapshot
        // tests, the gallery (its routes and index are here too) and the bench render them, and
        // the helpers only tests use. Never linked into the app.
        .target(
            name: "SanghaFixtures",
            dependencies: [
                "SanghaCore", "SanghaViewModels", "SanghaStore", "SanghaWeb",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // `make gallery`: every fixture rendered by swift-mustache from the templates on disk, in
        // the app's own middleware (the accessibility tests audit it).
        .executableTarget(
            name: "sangha-gallery",
            dependencies: [
                "SanghaCore", "SanghaViewModels", "SanghaWeb", "SanghaFixtures",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // `make bench`: render times of the compiled templates against swift-mustache; and
        // `sangha-bench serve-pages`, pages' bytes from memory through the app's middleware.
        .executableTarget(
            name: "sangha-bench",
            dependencies: [
                "SanghaCore", "SanghaViewModels", "SanghaStore", "SanghaWeb", "SanghaFixtures", "SanghaPush",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        .testTarget(name: "TemplateCompilerCoreTests", dependencies: ["TemplateCompilerCore", "ViewModelScanner"]),
        .testTarget(name: "CatalogCompilerCoreTests", dependencies: ["CatalogCompilerCore", "SanghaCore"]),
        .testTarget(name: "SanghaCoreTests", dependencies: ["SanghaCore", "SanghaTestSupport"]),
        .testTarget(name: "SanghaTokensTests", dependencies: ["SanghaTokens"]),
        .testTarget(name: "SanghaStoreSupportTests", dependencies: ["SanghaStoreSupport", "SanghaCore"]),
        .testTarget(
            name: "SanghaViewModelsTests",
            dependencies: ["SanghaViewModels", "SanghaCore", "SanghaFixtures", "SanghaTestSupport"]
        ),
        .testTarget(
            name: "SanghaStoreTests",
            dependencies: [
                "SanghaStore", "SanghaCore", "SanghaTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // One suite of the repositories' contract, run against SQLite and a real PostgreSQL.
        .testTarget(
            name: "RepositoryConformanceTests",
            dependencies: [
                "SanghaStore", "SanghaPostgres", "SanghaCore", "SanghaTestSupport", "SanghaPush", "SanghaWeb",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // What the stores never say, read in the database itself (expired files gone).
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "SanghaOIDCTests",
            dependencies: [
                "SanghaOIDC", "SanghaTestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
        .testTarget(
            name: "SanghaPushTests",
            dependencies: [
                "SanghaPush", "SanghaTokens", "SanghaTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Run by the tests with Python's http_ece and py-vapid, not compiled.
            exclude: ["independent_checks.py"]),
        .testTarget(
            name: "FriendServiceClientTests",
            dependencies: [
                "FriendServiceClient",
                "Resilience",
                "FriendServiceServer",
                "SanghaCore",
                "SanghaTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "FriendServiceServerTests",
            dependencies: [
                "FriendServiceServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "SanghaWebTests",
            dependencies: [
                "SanghaOIDC",
                "SanghaPush",
                "SanghaTokens",
                "SanghaWeb",
                "SanghaHTTP",
                "SanghaStore",
                "FriendServiceClient",
                "SanghaViewModels",
                "SanghaCore",
                "SanghaFixtures",
                "SanghaTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "SanghaCore", "SanghaStore", "SanghaTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
