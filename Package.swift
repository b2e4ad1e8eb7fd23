// swift-tools-version: 6.2
// Easel: a shape-drawing document editor for Linux that renders cards and drawings to images.
//
// The targets follow the house in docs/architecture.md: each room has one concern, and
// a target imports only the rooms below it.
//
//   EaselSupport ─┬─ EaselGeometry
//                 │        │
//                 ├─ EaselDocuments          (file-document protocol, Card, Drawing, history)
//                 └─ EaselCairo              (the only Swift target that imports the C modules)
//                          │
//                    EaselRender             (Scene, lowering, renderer, export)
//                     │         │
//              EaselEditing   EaselBatch     (editor and verbs; scanner, plan, manifest)
//                     │    │    │
//                     │  EaselServer ── easel-serve   (HTTP routes, render pool, cache, events; its own
//                     │         │                      executable, which `easel serve` runs)
//                     │     EaselGolden ── EaselGoldenTesting, EaselSnapshotTesting
//                     └────┬────┘
//                        easel              (arguments, terminal output, exit codes; no server stack)
import PackageDescription

/// A C library Easel links: shared by default; from its static archive, with the archives of
/// its own dependencies, under the trait StaticCLibraries, which the Makefile's release builds
/// enable (the 19 shared libraries this leaves out cost a process 2-3 ms of loading and
/// relocation, and a card exported as a process is ~25-70 ms: docs/performance.md). Libraries
/// other libraries also load (HarfBuzz, FreeType, libpng, zlib, ISA-L) stay shared either way.
/// The archives come with Debian's -dev packages, each listed before the archives it uses (a
/// static link looks in an archive only for what the objects before it still need).
func cLibrary(_ name: String, archives: [String]) -> [LinkerSetting] {
    [.linkedLibrary(name, .when(traits: ["SharedCLibraries"]))]
        + archives.map { .linkedLibrary(":lib\($0).a", .when(traits: ["StaticCLibraries"])) }
}
/// cairo and what its archive needs: pixman, fontconfig (with expat), and the X11 family its
/// Debian build includes (xlib and xcb surfaces Easel never creates, but the archive references).
let cairoLinking = cLibrary(
    "cairo",
    archives: [
        "cairo", "pixman-1", "fontconfig", "expat", "Xrender", "Xext", "X11", "xcb-render", "xcb-shm", "xcb", "Xau", "Xdmcp",
    ])
/// FriBidi, libjpeg-turbo and libwebp, which EaselCairo alone uses.
let imageAndTextLinking =
    cLibrary("fribidi", archives: ["fribidi"]) + cLibrary("jpeg", archives: ["jpeg"]) + cLibrary("webp", archives: ["webp"])
/// libedit (the interactive session's line editor) and what its archive needs.
let lineEditorLinking = cLibrary("edit", archives: ["edit", "tinfo", "bsd", "md"])

let package = Package(
    name: "Easel",
    products: [
        .executable(name: "easel", targets: ["easel"]),
        // The HTTP service in its own executable: `easel` builds without SwiftNIO and Hummingbird,
        // and `easel serve` runs this one (beside easel or on PATH).
        .executable(name: "easel-serve", targets: ["easel-serve"]),
        .library(name: "EaselGeometry", targets: ["EaselGeometry"]),
        .library(name: "EaselDocuments", targets: ["EaselDocuments"]),
        .library(name: "EaselCairo", targets: ["EaselCairo"]),
        .library(name: "EaselRender", targets: ["EaselRender"]),
        .library(name: "EaselEditing", targets: ["EaselEditing"]),
        .library(name: "EaselBatch", targets: ["EaselBatch"]),
        .library(name: "EaselGolden", targets: ["EaselGolden"]),
        .library(name: "EaselServer", targets: ["EaselServer"]),
        .library(name: "EaselGoldenTesting", targets: ["EaselGoldenTesting"]),
        // A separate product: only its users build swift-snapshot-testing.
        .library(name: "EaselSnapshotTesting", targets: ["EaselSnapshotTesting"]),
    ],
    // How the C libraries above are linked: one of the two (cLibrary).
    traits: [
        .trait(name: "SharedCLibraries", description: "Link cairo, FriBidi, libjpeg, libwebp and libedit as shared libraries."),
        .trait(
            name: "StaticCLibraries",
            description: "Link cairo, FriBidi, libjpeg, libwebp and libedit from their static archives (Debian's -dev packages)."),
        .default(enabledTraits: ["SharedCLibraries"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        // easel serve: real server parts, no home-made HTTP.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `make docs`: the DocC catalogs (Sources/<Product>/<Product>.docc) through SwiftPM.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C at the edge: cairo and FreeType as system libraries, libpng behind a tiny C shim
        // because libpng reports errors with longjmp, which Swift code must never be crossed by.
        // cairo, FriBidi, libwebp and libedit are linked by their Swift owners (cLibrary above), so
        // their module maps name headers only, found under /usr/include (libcairo2-dev,
        // libfribidi-dev, libwebp-dev, libedit-dev; `make deps` installs them).
        .systemLibrary(name: "CEaselCairo"),
        .systemLibrary(name: "CEaselFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // and Easel's own fast PNG writer's parts, deflating with ISA-L.
        // System calls the Glibc module leaves out (sync_file_range).
        .target(name: "CEaselSystem"),
        // Pixel kernels where pixman has no fast path (a turned photo's bilinear samples).
        .target(name: "CEaselPixels"),
        .target(name: "CEaselPNG", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("isal")]),
        // Text: HarfBuzz shapes, FriBidi orders right-to-left runs.
        .systemLibrary(name: "CEaselHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CEaselFriBidi"),
        // Photos as people have them: JPEG (libjpeg-turbo's libjpeg API, for its progress monitor:
        // a deadline and a scan limit between rows; libjpeg62-turbo-dev) and WebP (libwebp),
        // both linked by EaselCairo (cLibrary above).
        .target(name: "CEaselJPEG"),
        .systemLibrary(name: "CEaselWebP"),
        // The interactive session's line editor (libedit's readline interface).
        .systemLibrary(name: "CEaselEdit"),

        // Atomic files, the JSON reader and writer, file resolution, locks, memory figures:
        // shared by the rooms above with `package` access. Its two public types are the error
        // and warning every document API speaks.
        .target(name: "EaselSupport", dependencies: ["CEaselSystem"]),
        // Points, sizes, rects, affine transforms, paths, the clip-shape library, colours.
        .target(name: "EaselGeometry"),
        // The file-document protocol, content types, the registry, located documents, Card,
        // Drawing, colour names, undo history.
        .target(name: "EaselDocuments", dependencies: ["EaselSupport", "EaselGeometry"]),
        // One owning Swift type per C object: image and vector surfaces, contexts, font faces,
        // the PNG codec. Every status checked, typed errors.
        .target(
            name: "EaselCairo",
            dependencies: [
                "EaselSupport", "EaselGeometry", "CEaselCairo", "CEaselFreeType", "CEaselPNG", "CEaselPixels", "CEaselHarfBuzz",
                "CEaselFriBidi",
                "CEaselJPEG", "CEaselWebP",
            ],
            linkerSettings: cairoLinking + imageAndTextLinking),
        // A backend-free Scene, the lowering rules, the scene renderer over EaselCairo, export.
        .target(name: "EaselRender", dependencies: ["EaselSupport", "EaselGeometry", "EaselDocuments", "EaselCairo"]),
        // The document editor, the editing verbs, the element factory, image import.
        .target(
            name: "EaselEditing", dependencies: ["EaselSupport", "EaselGeometry", "EaselDocuments", "EaselCairo", "EaselRender"]),
        // Folder export: scanner, plan, shards, manifest and journal, the up-to-date rule, report.
        .target(
            name: "EaselBatch", dependencies: ["EaselSupport", "EaselGeometry", "EaselDocuments", "EaselCairo", "EaselRender"]),
        // Golden images: comparison, difference composites, record modes, folder suites and
        // their reports (no test framework, so the easel binary can use it)...
        .target(
            name: "EaselGolden",
            dependencies: ["EaselSupport", "EaselGeometry", "EaselDocuments", "EaselCairo", "EaselRender", "EaselBatch"]),
        // ...one-line assertions for XCTest and Swift Testing...
        .target(
            name: "EaselGoldenTesting",
            dependencies: ["EaselGolden", "EaselBatch", "EaselCairo", "EaselRender", "EaselDocuments", "EaselGeometry"]),
        // ...and strategies for swift-snapshot-testing's assertSnapshot on Linux.
        .target(
            name: "EaselSnapshotTesting",
            dependencies: [
                "EaselGolden", "EaselCairo", "EaselRender", "EaselDocuments", "EaselGeometry",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]),
        // easel serve: documents, renders and edits over HTTP (Hummingbird on SwiftNIO), with a
        // render pool, an ETag-keyed cache, change events, Prometheus metrics and structured logs.
        .target(
            name: "EaselServer",
            dependencies: [
                "EaselSupport", "EaselGeometry", "EaselDocuments", "EaselCairo", "EaselRender", "EaselEditing", "EaselBatch",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The browser editor: plain HTML, CSS and ES modules, served as they are (no build step).
            resources: [.copy("Editor")]),
        // The command line: arguments, terminal output, exit codes. No server stack: `easel serve`
        // runs easel-serve.
        .executableTarget(
            name: "easel",
            dependencies: [
                "EaselSupport", "EaselGeometry", "EaselDocuments", "EaselCairo", "EaselRender", "EaselEditing", "EaselBatch",
                "EaselGolden", "CEaselEdit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: lineEditorLinking
        ),
        // easel-serve (`easel serve`): the server's command line.
        .executableTarget(
            name: "easel-serve",
            dependencies: ["EaselServer", "EaselSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Tools: `swift run SampleMaker Assets/Samples`, `swift run CorpusMaker Tests/Corpus/hostile`,
        // and the benchmark's C baseline, which replays Easel's scenes with raw cairo and libpng.
        .executableTarget(
            name: "SampleMaker", dependencies: ["EaselRender", "EaselDocuments", "EaselGeometry", "EaselCairo"],
            path: "Tools/SampleMaker"),
        .executableTarget(name: "CorpusMaker", dependencies: ["EaselCairo"], path: "Tools/CorpusMaker"),
        // `swift run -c release GoldenMetricStudy`: the measurement behind the golden comparator's default.
        .executableTarget(
            name: "GoldenMetricStudy",
            dependencies: ["EaselGolden", "EaselRender", "EaselDocuments", "EaselGeometry", "EaselCairo"],
            path: "Tools/GoldenMetricStudy"),
        .executableTarget(
            name: "easel-cairo-reference",
            dependencies: ["CEaselCairo", "CEaselFreeType", "CEaselPNG"],
            path: "Tools/easel-cairo-reference",
            linkerSettings: cairoLinking + [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("isal")]
        ),
        // The benchmark (`make bench`).
        .executableTarget(
            name: "easel-bench",
            dependencies: [
                "EaselSupport", "EaselRender", "EaselDocuments", "EaselGeometry", "EaselCairo", "EaselGolden", "EaselTestSupport",
                "EaselEditing",
            ],
            path: "Benchmarks/easel-bench"
        ),
        // libFuzzer targets (Fuzz/fuzz.sh builds them with -sanitize=fuzzer).
        .target(
            name: "EaselFuzzProperties", dependencies: ["EaselDocuments", "EaselCairo", "EaselRender", "EaselServer"],
            path: "Fuzz/EaselFuzzProperties"),
        .executableTarget(name: "easel-fuzz-documents", dependencies: ["EaselFuzzProperties"], path: "Fuzz/easel-fuzz-documents"),
        .executableTarget(name: "easel-fuzz-png", dependencies: ["EaselFuzzProperties"], path: "Fuzz/easel-fuzz-png"),
        .executableTarget(name: "easel-fuzz-render", dependencies: ["EaselFuzzProperties"], path: "Fuzz/easel-fuzz-render"),
        .executableTarget(name: "easel-fuzz-zip", dependencies: ["EaselFuzzProperties"], path: "Fuzz/easel-fuzz-zip"),

        // Helpers shared by the test targets: an independent PNG writer, temporary folders,
        // a subprocess runner, easel run in a scratch folder, waits on conditions.
        .target(
            name: "EaselTestSupport", dependencies: ["EaselCairo", "EaselDocuments", "EaselGeometry", "EaselSupport"],
            path: "Tests/EaselTestSupport"),
        .testTarget(name: "EaselSupportTests", dependencies: ["EaselSupport", "EaselTestSupport", "CEaselSystem"]),
        // The Swift samples of README.md, docs/ and the DocC catalogs are parts of Snippets/
        // (compiled with the package, each an executable), the documentation's links resolve,
        // docs/cli.md's walkthrough runs, and the deployment files (Dockerfile, runtime
        // packages) agree with what `easel doctor` checks: checked here.
        .testTarget(
            name: "EaselDocumentationTests", dependencies: ["EaselCairo", "EaselGoldenTesting", "EaselTestSupport"]),
        .testTarget(name: "EaselGeometryTests", dependencies: ["EaselGeometry"]),
        .testTarget(
            name: "EaselDocumentsTests", dependencies: ["EaselDocuments", "EaselSupport", "EaselGeometry", "EaselTestSupport"]),
        .testTarget(
            name: "EaselCairoTests",
            dependencies: [
                "EaselCairo", "EaselGeometry", "EaselSupport", "EaselTestSupport", "CEaselSystem", "CEaselPNG", "CEaselCairo",
            ]),
        .testTarget(
            name: "EaselRenderTests",
            dependencies: [
                "EaselRender", "EaselCairo", "EaselDocuments", "EaselGeometry", "EaselSupport", "EaselGoldenTesting",
                "EaselTestSupport", "CEaselJPEG",
            ], exclude: ["Images"]),
        .testTarget(
            name: "EaselEditingTests",
            dependencies: [
                "EaselEditing", "EaselRender", "EaselBatch", "EaselCairo", "EaselDocuments", "EaselGeometry", "EaselSupport",
                "EaselTestSupport",
            ]),
        .testTarget(
            name: "EaselBatchTests",
            dependencies: [
                "EaselBatch", "EaselRender", "EaselCairo", "EaselDocuments", "EaselGeometry", "EaselSupport", "EaselTestSupport",
            ]),
        .testTarget(
            name: "EaselGoldenTests",
            dependencies: [
                "EaselGolden", "EaselGoldenTesting", "EaselCairo", "EaselRender", "EaselDocuments", "EaselGeometry",
                "EaselTestSupport",
            ], exclude: ["Fixtures"]),
        .testTarget(
            name: "EaselSnapshotTestingTests",
            dependencies: [
                "EaselSnapshotTesting", "EaselGolden", "EaselCairo", "EaselRender", "EaselDocuments", "EaselGeometry",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ], exclude: ["__Snapshots__"]),
        .testTarget(
            name: "EaselReliabilityTests",
            dependencies: [
                "EaselDocuments", "EaselCairo", "EaselRender", "EaselEditing", "EaselGeometry", "EaselSupport",
                "EaselFuzzProperties",
                "EaselTestSupport",
            ]),
        .testTarget(
            name: "EaselServerTests",
            dependencies: [
                "EaselServer", "EaselEditing", "EaselRender", "EaselCairo", "EaselDocuments", "EaselGeometry", "EaselSupport",
                "EaselTestSupport", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "EaselCLITests",
            dependencies: [
                "EaselRender", "EaselCairo", "EaselDocuments", "EaselGeometry", "EaselEditing", "EaselBatch", "EaselGolden",
                "EaselGoldenTesting",
                "EaselTestSupport",
            ]),
    ]
)
