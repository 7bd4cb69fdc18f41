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
    ],
    targets: [
        .executableTarget(
            name: "gallery",
            dependencies: [
                "GalleryKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "GalleryKit",
            dependencies: [
                "CLibXML2",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings,
            plugins: ["EmbedResources"]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
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
                .product(name: "PropertyBased", package: "swift-property-based"),
                // The reference implementation our own Mustache engine is compared against.
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GalleryEndToEndTests",
            dependencies: ["GalleryKit"],
            swiftSettings: swiftSettings
        ),
    ]
)
