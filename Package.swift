// swift-tools-version:6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "gallery",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "gallery", targets: ["gallery"]),
        .library(name: "GalleryKit", targets: ["GalleryKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Already in the graph through AsyncHTTPClient; named so a failed TLS handshake can be
        // told apart (a plain-HTTP port, an untrusted certificate) instead of quoted raw.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The live-reload channel of `gallery serve`: a WebSocket per page, which browsers do not
        // count against their six HTTP/1.1 connections per host (an EventSource per tab did).
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Already in the graph through Hummingbird; named here because the preview server runs
        // its own ServiceGroup (graceful shutdown on SIGINT/SIGTERM) and quiets the server's log.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "gallery",
            dependencies: [
                "GalleryKit",
                "GalleryPreview",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["exported-symbols.map"],
            swiftSettings: swiftSettings + [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            // A release binary carries the Swift runtime and Foundation inside it: it starts in
            // 10 ms rather than 17 (no Swift libraries to load and bind at every command), a
            // rebuild of 10k albums takes a tenth less, and it runs on a machine without Swift.
            // It exports none of its own symbols (see exported-symbols.map).
            linkerSettings: [.unsafeFlags([
                "-static-stdlib",
                "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/gallery/exported-symbols.map",
            ], .when(platforms: [.linux], configuration: .release))]
        ),
        .target(
            name: "GalleryKit",
            dependencies: [
                "CLibXML2",
                "CVipsShim",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Release builds leave out the run-time exclusivity checks (the compile-time ones stay,
            // and debug builds, which the tests run, keep both): the page check and the renderer
            // keep their state in classes, and checking every access to it took 5% of the CPU
            // time of a cold build of 100,000 albums (Benchmarks/README.md, stop 40).
            swiftSettings: swiftSettings + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))],
            plugins: ["EmbedResources"]
        ),
        // The preview server (`gallery serve`): static files, live reload, rebuild on change.
        .target(
            name: "GalleryPreview",
            dependencies: [
                "GalleryKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // libvips through a small C shim: Swift cannot call its variadic API, and the shim's
        // header uses plain C types only, so Swift never sees glib. The include paths are
        // Debian's (libvips-dev); pkg-config's own flags include -pthread, which SwiftPM refuses
        // with a warning on every build.
        .target(
            name: "CVipsShim",
            cSettings: [
                .unsafeFlags([
                    "-I/usr/include/glib-2.0",
                    "-I/usr/lib/x86_64-linux-gnu/glib-2.0/include",
                    "-I/usr/lib/aarch64-linux-gnu/glib-2.0/include",
                ]),
            ],
            // Not linked: the shim opens libvips with dlopen when the first thumbnail is made.
            linkerSettings: [
                .linkedLibrary("dl"),
            ]
        ),
        .executableTarget(
            name: "embed-resources",
            swiftSettings: swiftSettings
        ),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["embed-resources"]
        ),
        .testTarget(
            name: "GalleryKitTests",
            dependencies: [
                "GalleryKit",
                // The iOS app's Album class, which the keyed-archive tests archive as the app does.
                "BlueLibrary",
                .product(name: "PropertyBased", package: "swift-property-based"),
                // The reference implementation our own Mustache engine is compared against.
                .product(name: "Mustache", package: "swift-mustache"),
                // The fault-injecting HTTP server the cover tests download from.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GalleryEndToEndTests",
            dependencies: ["GalleryKit", "BlueLibrary"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GalleryPreviewTests",
            dependencies: [
                "GalleryPreview",
                "GalleryKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        // The iOS app's Album class, for building an albums.bin fixture with NSKeyedArchiver.
        .target(
            name: "BlueLibrary",
            path: "Tests/Fixtures/BlueLibrary",
            swiftSettings: swiftSettings
        ),
    ]
)
