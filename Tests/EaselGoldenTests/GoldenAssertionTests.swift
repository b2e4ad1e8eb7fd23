import EaselGoldenTesting
import Foundation
import Testing

/// The assertions a downstream test calls: a document file, a `RenderedImage`, a folder.
/// Failures are checked as Swift Testing issues with their messages (a failing assertion
/// must say what and where).
@Suite("Golden assertions")
struct GoldenAssertionTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/Samples")
    static let card = samples.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard")

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("easel-assertions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The messages of the issues a body recorded (the matcher may run on any thread).
    final class Messages: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [String] = []
        func append(_ message: String) { lock.withLock { messages.append(message) } }
        var all: [String] { lock.withLock { messages } }
    }

    /// Runs `body`, expecting failures, and returns their messages.
    func failures(_ body: () -> Void) -> [String] {
        let messages = Messages()
        withKnownIssue(isIntermittent: true) {
            body()
        } matching: { issue in
            messages.append(issue.comments.map(\.rawValue).joined(separator: "\n"))
            return true
        }
        return messages.all
    }

    @Test func aCardFileMatchesItsGoldenByFileName() {
        // Goldens/Documentation/1A2B3C4D-0000-4000-8000-000000000001.png: the sample card at
        // the thumbnail size, named after the file.
        assertGolden(file: Self.card, suite: "Documentation", record: .never)
        assertGolden(file: Self.card, named: "1A2B3C4D-0000-4000-8000-000000000001", suite: "Documentation", record: .never)
    }

    @Test func aBadFileFailsNamingTheFileAndTheKeyPath() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.rwcard")
        try Data(
            #"{"id": "8E2E4B4C-1C5B-4D0E-9C0A-5C7C1E2B3A4F", "backgroundColor": [1, 1, 1, 1], "imageElements": [{"transform": 7}], "textElements": []}"#
                .utf8
        ).write(to: bad)
        let messages = failures { assertGolden(file: bad, suite: "Documentation", record: .never) }
        #expect(messages.count == 1)
        #expect(messages.first?.contains(bad.path) == true, "\(messages)")
        #expect(messages.first?.contains("imageElements[0].transform") == true, "\(messages)")
    }

    @Test func aRenderedImageThatDiffersSaysWhatTheRenderWarned() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The sample card without its images: drawn with the app's error image, and warned about.
        try FileManager.default.copyItem(at: Self.card, to: folder.appendingPathComponent(Self.card.lastPathComponent))
        let located = try DocumentRegistry.standard.open(folder.appendingPathComponent(Self.card.lastPathComponent))
        let rendered = try DocumentRenderer.render(located, options: RenderOptions(size: .thumbnail))
        #expect(!rendered.warnings.isEmpty)
        let messages = failures {
            assertGolden(rendered, named: "1A2B3C4D-0000-4000-8000-000000000001", suite: "Documentation", record: .never)
        }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("the rendering warned:") == true, "\(messages)")
        #expect(messages.first?.contains("8A1C53E2-0B1F-4C07-9A52-3E1B7F0C2D11") == true, "\(messages)")
    }

    @Test func aCardValueThatDiffersSaysWhatItsRenderWarnedToo() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let card = try #require(try DocumentRegistry.standard.open(Self.card).document as? Card)
        // Placed in a folder without its images: the same golden, the error image instead.
        let messages = failures {
            assertGolden(
                card: card, in: folder, named: "1A2B3C4D-0000-4000-8000-000000000001", suite: "Documentation", record: .never)
        }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("the rendering warned:") == true, "\(messages)")
    }

    @Test func aFolderIsRecordedThenVerifiedAndAChangedDocumentFailsWithAReport() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let documents = folder.appendingPathComponent("Documents"), goldens = folder.appendingPathComponent("Goldens")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        var drawing = Drawing(canvasSize: Size(width: 60, height: 40))
        drawing.graphics.append(
            Graphic(
                kind: .ellipse, transform: GraphicTransform(center: Point(x: 30, y: 20), size: Size(width: 40, height: 30)),
                fill: Color(rgb: 0x2A9D8F)))
        try DocumentRegistry.standard.save(drawing, to: documents.appendingPathComponent("dot.drawing"))

        // Recording fails the test that recorded, naming the golden it wrote.
        let recorded = failures { assertGoldenFolder(documents.path, goldens: goldens.path, record: .missing) }
        #expect(recorded.count == 1 && recorded[0].contains("recorded \(goldens.path)/dot.png"), "\(recorded)")
        #expect(FileManager.default.fileExists(atPath: goldens.appendingPathComponent("dot.png").path))

        // Then it passes, in every mode that writes only what is missing or failing.
        assertGoldenFolder(documents.path, goldens: goldens.path, record: .never)
        assertGoldenFolder(documents.path, goldens: goldens.path, record: .missing)

        // A changed document fails with its path, and the report is written.
        drawing.graphics[0].fill = Color(rgb: 0xE63946)
        try DocumentRegistry.standard.save(drawing, to: documents.appendingPathComponent("dot.drawing"))
        let report = folder.appendingPathComponent("report")
        let failed = failures { assertGoldenFolder(documents.path, goldens: goldens.path, report: report.path, record: .never) }
        #expect(failed.count == 2, "\(failed)")
        #expect(failed.first?.hasPrefix(documents.appendingPathComponent("dot.drawing").path) == true, "\(failed)")
        #expect(failed.last?.contains("0 of 1 documents match their goldens") == true, "\(failed)")
        #expect(FileManager.default.fileExists(atPath: report.appendingPathComponent("index.html").path))
        #expect(FileManager.default.fileExists(atPath: goldens.appendingPathComponent("dot.png").path), "never deleted")
    }

    @Test func aGoldenNameThatLeavesTheGoldensFolderFailsAndWritesNothing() throws {
        let image = try RasterImage(width: 4, height: 4)
        let root = try #require(GoldenSession.packageRoot(from: #filePath))
        let escape = "easel-escape-\(UUID().uuidString)"
        // Recording everything, a name climbing out of Goldens/ would write the package's root.
        let climbing = failures { assertGolden(image, named: "../../\(escape)", suite: "Documentation", record: .all) }
        #expect(climbing.count == 1 && climbing.first?.contains("leads outside the goldens folder") == true, "\(climbing)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("\(escape).png").path))
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let verifier = GoldenVerifier(
            goldensFolder: folder.appendingPathComponent("Goldens"), artifactsFolder: folder.appendingPathComponent("artifacts"),
            recordMode: .all)
        for name in ["", "/tmp/\(escape)", "a//b", "a/./b", "a/b/..", "a\\b"] {
            let outcome = verifier.verify(image, named: name)
            #expect(!outcome.passed && !outcome.recorded && outcome.message?.contains("the name") == true, "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/\(escape).png"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) == [], "nothing written")
        #expect(verifier.verify(image, named: "Cards/one").recorded, "a plain relative name records")
    }

    @Test func aMissingDocumentsFolderIsAFailureNotAPass() {
        let messages = failures {
            assertGoldenFolder("/nonexistent/easel-documents", goldens: "/nonexistent/goldens", record: .never)
        }
        #expect(messages.count == 1)
        #expect(messages.first?.contains("/nonexistent/easel-documents") == true, "\(messages)")
    }
}
