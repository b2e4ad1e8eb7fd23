// swift-tools-version: 6.2
// A downstream package, as a team using Easel would write it: a library that renders cards
// and builds drawings in code, a small server, and golden tests in XCTest, Swift Testing and
// swift-snapshot-testing. Easel's `make test` builds it and runs its tests.
import PackageDescription

let package = Package(
    name: "CardStudio",
    dependencies: [
        .package(path: "../Easel")  // a path dependency's package name is its folder's name: "Easel"
    ],
    targets: [
        .target(
            name: "CardStudio",
            dependencies: [
                .product(name: "EaselDocuments", package: "Easel"),
                .product(name: "EaselGeometry", package: "Easel"),
                .product(name: "EaselRender", package: "Easel"),
                .product(name: "EaselServer", package: "Easel"),
            ]),
        .executableTarget(name: "card-studio", dependencies: ["CardStudio"]),
        .testTarget(
            name: "CardStudioTests",
            dependencies: [
                "CardStudio",
                .product(name: "EaselGoldenTesting", package: "Easel"),
                .product(name: "EaselSnapshotTesting", package: "Easel"),  // brings swift-snapshot-testing with it
            ],
            exclude: ["__Snapshots__"]),  // swift-snapshot-testing's references: not sources
    ]
)
