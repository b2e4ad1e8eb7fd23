// swift-tools-version: 6.1
// Easel: a shape-drawing document editor for Linux that renders cards and drawings to images.
import PackageDescription

let package = Package(
    name: "Easel",
    products: [
        .executable(name: "easel", targets: ["easel"]),
        .library(name: "EaselGeometry", targets: ["EaselGeometry"]),
        .library(name: "EaselDocuments", targets: ["EaselDocuments"]),
        .library(name: "EaselRender", targets: ["EaselRender"]),
        .library(name: "EaselGolden", targets: ["EaselGolden"]),
        .library(name: "EaselGoldenTesting", targets: ["EaselGoldenTesting"]),
        // A separate product: only its users build swift-snapshot-testing.
        .library(name: "EaselSnapshotTesting", targets: ["EaselSnapshotTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        // C at the edge: cairo and FreeType as system libraries, libpng behind a tiny C shim
        // because libpng reports errors with longjmp, which Swift code must never be crossed by.
        .systemLibrary(
            name: "CEaselCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        .systemLibrary(
            name: "CEaselFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]
        ),
        .target(
            name: "CEaselPNG",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
        ),

        // The Swift layers, bottom up: values, documents, rendering, the command line.
        .target(name: "EaselGeometry"),
        .target(name: "EaselDocuments", dependencies: ["EaselGeometry"]),
        .target(
            name: "EaselRender",
            dependencies: ["EaselDocuments", "EaselGeometry", "CEaselCairo", "CEaselFreeType", "CEaselPNG"]
        ),
        // Golden images: comparison, difference composites, record modes (no test framework)...
        .target(name: "EaselGolden", dependencies: ["EaselRender", "EaselDocuments", "EaselGeometry"]),
        // ...and one-line assertions for XCTest and Swift Testing.
        .target(name: "EaselGoldenTesting", dependencies: ["EaselGolden", "EaselRender", "EaselDocuments"]),
        // ...and strategies for swift-snapshot-testing's assertSnapshot on Linux.
        .target(name: "EaselSnapshotTesting", dependencies: [
            "EaselGolden", "EaselRender", "EaselDocuments",
            .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        ]),
        .executableTarget(
            name: "easel",
            dependencies: [
                "EaselRender", "EaselDocuments", "EaselGolden",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmark (`make bench`) and its C baseline, which replays Easel's scenes with raw
        // cairo and libpng calls.
        .executableTarget(name: "easel-bench", dependencies: ["EaselRender", "EaselDocuments", "EaselGeometry"]),
        .executableTarget(
            name: "easel-cairo-reference",
            dependencies: ["CEaselCairo", "CEaselFreeType"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
        ),
        // libFuzzer targets (Tests/Fuzz/fuzz.sh builds them with -sanitize=fuzzer).
        .target(name: "EaselFuzzProperties", dependencies: ["EaselDocuments", "EaselRender"]),
        .executableTarget(name: "easel-fuzz-documents", dependencies: ["EaselFuzzProperties"]),
        .executableTarget(name: "easel-fuzz-png", dependencies: ["EaselFuzzProperties"]),
        // Writes the hostile-input corpus: `swift run CorpusMaker Tests/Corpus/hostile`.
        .executableTarget(name: "CorpusMaker", dependencies: ["EaselRender"]),
        // Writes Assets/Samples: `swift run SampleMaker Assets/Samples`.
        .executableTarget(name: "SampleMaker", dependencies: ["EaselRender", "EaselDocuments", "EaselGeometry"]),

        // Helpers shared by the test targets: an independent PNG writer, temporary folders,
        // a subprocess runner.
        .target(name: "EaselTestSupport", dependencies: ["EaselRender"], path: "Tests/EaselTestSupport"),
        .testTarget(name: "EaselGeometryTests", dependencies: ["EaselGeometry"]),
        .testTarget(name: "EaselDocumentsTests", dependencies: ["EaselDocuments", "EaselTestSupport"]),
        .testTarget(name: "EaselRenderTests", dependencies: ["EaselRender", "EaselGoldenTesting", "EaselTestSupport", "CEaselCairo", "CEaselPNG"]),
        .testTarget(name: "EaselGoldenTests", dependencies: ["EaselGolden", "EaselGoldenTesting", "EaselRender", "EaselTestSupport"]),
        .testTarget(name: "EaselSnapshotTestingTests", dependencies: [
            "EaselSnapshotTesting", "EaselGolden", "EaselRender", "EaselDocuments", "EaselGeometry",
            .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
        ], exclude: ["__Snapshots__"]),
        .testTarget(name: "EaselReliabilityTests", dependencies: ["EaselDocuments", "EaselRender", "EaselGeometry", "EaselFuzzProperties", "EaselTestSupport"]),
        .testTarget(name: "EaselCLITests", dependencies: ["EaselRender", "EaselDocuments", "EaselGeometry", "EaselGolden", "EaselGoldenTesting", "EaselTestSupport"]),
    ]
)
