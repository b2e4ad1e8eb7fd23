import Foundation
import Testing
import XCTest
import EaselBatch
// A test file that imports EaselGoldenTesting alone has what its assertions take: documents
// (`Card`, `Drawing`, `DocumentRegistry`), geometry and colours, `RenderOptions`, images and
// tolerances.
@_exported import EaselCairo
@_exported import EaselDocuments
@_exported import EaselGeometry
@_exported import EaselGolden
@_exported import EaselRender

/// One-line golden checks for XCTest and Swift Testing. The golden is
/// `Goldens/<suite>/<name>.png` in the package that holds the calling test file (found by
/// walking up from it to `Package.swift`); failures write artifacts under
/// `.build/golden-artifacts/<suite>/<name>/` (or `$EASEL_GOLDEN_ARTIFACTS`) and say where.
/// The record mode comes from `EASEL_GOLDEN_RECORD` (see `RecordMode`) unless given.
/// Differences inside `ignoring` (rectangles in the image's pixels) never count; the
/// composite hatches them.
public func assertGolden(
    _ image: RasterImage, named name: String, suite: String, tolerance: Tolerance = .default, ignoring: [PixelRect] = [],
    record: RecordMode? = nil, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    GoldenSession.check(
        image, warnings: [], named: name, suite: suite, tolerance: tolerance, ignoring: ignoring, record: record,
        filePath: filePath, line: line, column: column)
}

/// Checks a rendering made by `DocumentRenderer.render`. Its warnings (a missing image, an
/// unmapped font) are part of the failure message, since they often explain the difference.
public func assertGolden(
    _ rendered: RenderedImage, named name: String, suite: String, tolerance: Tolerance = .default,
    ignoring: [PixelRect] = [], record: RecordMode? = nil, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
) {
    GoldenSession.check(
        rendered.image, warnings: rendered.warnings, named: name, suite: suite, tolerance: tolerance, ignoring: ignoring,
        record: record, filePath: filePath, line: line, column: column)
}

/// Opens the document file at `url` with `registry` (any registered type, by extension),
/// renders it and checks it against `Goldens/<suite>/<name>.png`; `name` defaults to the
/// file's name without its extension. A file that cannot be opened or rendered fails the
/// test with the reason, naming the file and the JSON key path.
public func assertGolden(
    file url: URL, named name: String? = nil, suite: String, registry: DocumentRegistry = .standard,
    options: RenderOptions = RenderOptions(size: .thumbnail), tolerance: Tolerance = .default, ignoring: [PixelRect] = [],
    record: RecordMode? = nil, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    do {
        let rendered = try DocumentRenderer.render(try registry.open(url), options: options)
        assertGolden(
            rendered, named: name ?? url.deletingPathExtension().lastPathComponent, suite: suite, tolerance: tolerance,
            ignoring: ignoring, record: record, filePath: filePath, line: line, column: column)
    } catch {
        GoldenSession.report("\(url.path): \(error)", filePath: filePath, line: line, column: column)
    }
}

/// Renders `document` (which lives at `url`, for its images) and checks it against its golden;
/// the render's warnings join a failure's message.
public func assertGolden(
    _ document: any FileDocument, at url: URL, named name: String, suite: String,
    options: RenderOptions = RenderOptions(size: .thumbnail), tolerance: Tolerance = .default, ignoring: [PixelRect] = [],
    record: RecordMode? = nil, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    do {
        let rendered = try DocumentRenderer.render(LocatedDocument(document, at: url), options: options)
        assertGolden(
            rendered, named: name, suite: suite, tolerance: tolerance, ignoring: ignoring, record: record,
            filePath: filePath, line: line,
            column: column)
    } catch {
        GoldenSession.report("\(url.path): cannot be rendered: \(error)", filePath: filePath, line: line, column: column)
    }
}

/// Checks a card, rendered at the app's thumbnail size unless told otherwise.
public func assertGolden(
    card: Card, in folder: URL, named name: String, suite: String,
    options: RenderOptions = RenderOptions(size: .thumbnail), tolerance: Tolerance = .default, ignoring: [PixelRect] = [],
    record: RecordMode? = nil, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertGolden(
        card, at: folder.appendingPathComponent(card.appFileName), named: name, suite: suite, options: options,
        tolerance: tolerance, ignoring: ignoring, record: record, filePath: filePath, line: line, column: column)
}

/// Checks a drawing, rendered at its canvas size unless told otherwise; its images are
/// looked for in `imageFolder`.
public func assertGolden(
    drawing: Drawing, imageFolder: URL, named name: String, suite: String,
    options: RenderOptions = RenderOptions(size: .scale(1)), tolerance: Tolerance = .default, ignoring: [PixelRect] = [],
    record: RecordMode? = nil, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertGolden(
        drawing, at: imageFolder.appendingPathComponent("drawing.drawing"), named: name, suite: suite, options: options,
        tolerance: tolerance, ignoring: ignoring, record: record, filePath: filePath, line: line, column: column)
}

/// Finding the package, choosing the mode, and reporting to the running test framework.
public enum GoldenSession {
    /// The folder holding `Package.swift` above `filePath`.
    public static func packageRoot(from filePath: StaticString) -> URL? {
        var folder = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) { return folder }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    static func verify(
        _ image: RasterImage, named name: String, tolerance: Tolerance, ignoring: [PixelRect], record: RecordMode?,
        filePath: StaticString
    ) -> GoldenOutcome {
        guard let root = packageRoot(from: filePath) else {
            return GoldenOutcome(
                passed: false, message: "no Package.swift above \(filePath): cannot find Goldens/", recorded: false,
                artifacts: nil, comparison: nil)
        }
        let mode: RecordMode
        do { mode = try record ?? RecordMode.fromEnvironment() } catch {
            return GoldenOutcome(passed: false, message: "\(error)", recorded: false, artifacts: nil, comparison: nil)
        }
        let artifacts =
            ProcessInfo.processInfo.environment["EASEL_GOLDEN_ARTIFACTS"].map { URL(fileURLWithPath: $0) }
            ?? root.appendingPathComponent(".build/golden-artifacts")
        let verifier = GoldenVerifier(
            goldensFolder: root.appendingPathComponent("Goldens"), artifactsFolder: artifacts,
            recordMode: mode, tolerance: tolerance)
        return verifier.verify(image, named: name, ignoring: ignoring)
    }

    /// Checks `image` against `Goldens/<suite>/<name>.png` and reports a failure; the
    /// warnings of the render that made it (a missing image, an unmapped font) join the
    /// message, since they often explain the difference.
    static func check(
        _ image: RasterImage, warnings: [DocumentWarning], named name: String, suite: String, tolerance: Tolerance,
        ignoring: [PixelRect], record: RecordMode?, filePath: StaticString, line: UInt, column: UInt
    ) {
        let outcome = verify(
            image, named: suite + "/" + name, tolerance: tolerance, ignoring: ignoring, record: record, filePath: filePath)
        guard !outcome.passed else { return }
        var message = outcome.message ?? "golden check failed"
        if !warnings.isEmpty {
            message += "\nthe rendering warned: " + warnings.map(\.description).joined(separator: "; ")
        }
        report(message, filePath: filePath, line: line, column: column)
    }

    /// Records a failure with Swift Testing when a Swift Testing test is running, and with
    /// XCTest otherwise.
    public static func report(_ message: String, filePath: StaticString, line: UInt, column: UInt) {
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: "\(filePath)", filePath: "\(filePath)",
                    line: Int(line), column: Int(column)))
        } else {
            XCTFail(message, file: filePath, line: line)
        }
    }
}
