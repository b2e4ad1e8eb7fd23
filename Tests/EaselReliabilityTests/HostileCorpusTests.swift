import Testing
import Foundation
import EaselDocuments
import EaselRender
import EaselCairo
import EaselTestSupport

/// Every case of the committed hostile corpus (Tests/Corpus/hostile, written by
/// `swift run CorpusMaker Tests/Corpus/hostile`) ends in its expected outcome: a clear error
/// containing the expected phrases, or a render whose warnings contain them.
@Suite("Hostile corpus")
struct HostileCorpusTests {
    struct Expectation: Codable, Sendable, CustomTestStringConvertible {
        var name: String
        var document: String
        var outcome: String
        var phrases: [String]
        var testDescription: String { name }
    }

    static let root = ProcessRunner.packageRoot.appendingPathComponent("Tests/Corpus/hostile")

    static var cases: [Expectation] {
        let data = (try? Data(contentsOf: root.appendingPathComponent("expectations.json"))) ?? Data("[]".utf8)
        return (try? JSONDecoder().decode([Expectation].self, from: data)) ?? []
    }

    @Test func theCorpusIsThere() {
        #expect(Self.cases.count >= 50)
    }

    @Test(arguments: cases) func caseEndsAsExpected(_ expectation: Expectation) throws {
        let url = Self.root.appendingPathComponent(expectation.name).appendingPathComponent(expectation.document)
        var warnings: [DocumentWarning] = []
        let outcome: Result<ExportedFile, Error> = Result {
            let document = try DocumentRegistry.standard.open(url)
            warnings = document.warnings
            return try DocumentRenderer.export(document, options: RenderOptions(size: .scale(0.1)))
        }
        switch (expectation.outcome, outcome) {
        case ("error", .failure(let error)):
            let message = "\(error)"
            #expect(message.hasPrefix(url.path), "the error names the file: \(message)")
            for phrase in expectation.phrases { #expect(message.contains(phrase), "\(expectation.name): \(message)") }
        case ("renders", .success(let file)):
            #expect(try PNGDecoder.decode(file.bytes).width == Int((Double(file.width)).rounded()))
            let all = (warnings + file.warnings).map(\.description).joined(separator: "\n")
            for phrase in expectation.phrases { #expect(all.contains(phrase), "\(expectation.name) warnings: \(all)") }
        case (_, .failure(let error)):
            Issue.record("\(expectation.name) should render but failed: \(error)")
        case (_, .success):
            Issue.record("\(expectation.name) should fail but rendered")
        }
    }
}

/// The resource limits, each enforced before the memory is allocated.
@Suite("Resource limits")
struct ResourceLimitTests {
    @Test func aCardFileOverTheLimitIsRefusedFromItsSize() throws {
        let folder = TemporaryFolder()
        let url = folder.file("big.rwcard")
        // A sparse 17 MiB file: refused from its size, never read.
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(CardLimits.maxFileBytes + (1 << 20)))
        try handle.close()
        #expect { try DocumentRegistry.standard.open(url) } throws: { error in
            "\(error)"
                == "\(url.path): the file is \(CardLimits.maxFileBytes + (1 << 20)) bytes, over the limit of \(CardLimits.maxFileBytes) bytes"
        }
    }

    @Test func anEndlessFileIsNotRead() throws {
        // A device is never read, even where a user may name a stream (`<(…)`; a pipe that
        // goes on past the limit is cut off there: NamedPipeReadingTests)...
        #expect { try FileIO.readBytes(at: "/dev/zero", maxBytes: 1 << 20, allowingStreams: true) } throws: { error in
            "\(error)".contains("is a device, not a file")
        }
        // ...nor where Easel reads documents and images, which takes regular files alone.
        #expect { try FileIO.readBytes(at: "/dev/zero", maxBytes: 1 << 20) } throws: { error in
            "\(error)".contains("is a device, not a file")
        }
        let folder = TemporaryFolder()
        let fifo = folder.file("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect { try FileIO.readBytes(at: fifo, maxBytes: 1 << 20) } throws: { error in
            "\(error)".contains("is not a regular file")
        }
    }

    @Test func outputAndImageLimits() throws {
        #expect(throws: CairoError.self) { try RasterImage(width: RenderLimits.maxOutputSide + 1, height: 1) }
        #expect(throws: CairoError.self) { try RasterImage(width: 10_001, height: 10_001) }
        #expect(throws: RenderError.self) { try OutputSize.scale(100).pixelSize(for: Card.canvasSize) }
    }
}
