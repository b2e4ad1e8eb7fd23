import EaselDocuments
import EaselGeometry
import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// A document that comes as bytes without a file (standard input, a request body) opens
/// through the registry, which tells its type from its name or its content, so that no
/// shell needs to know Card or Drawing.
@Suite("Opening a document from bytes")
struct OpeningBytesTests {
    static let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")
    static let folder = URL(fileURLWithPath: "/srv/cards")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: samples.appendingPathComponent(name)))
    }

    @Test func cardAndDrawingBytesAreToldApartByTheirContent() throws {
        let card = try DocumentRegistry.standard.open(
            bytes: try Self.bytes("1A2B3C4D-0000-4000-8000-000000000001.rwcard"), name: "standard input", in: Self.folder)
        #expect(card.document is Card)
        #expect(card.displayName == "standard input.rwcard")
        #expect(card.resourceFolder.path == "/srv/cards", "its images are looked for in the folder given")
        let drawing = try DocumentRegistry.standard.open(
            bytes: try Self.bytes("Showcase.drawing"), name: "standard input", in: Self.folder)
        #expect(drawing.document is Drawing)
        #expect(drawing.url.path == "/srv/cards/standard input.drawing")
    }

    @Test func aNameWithARegisteredExtensionDecidesTheType() throws {
        // Card bytes named as a drawing are read as a drawing, and fail as one, by name.
        #expect {
            try DocumentRegistry.standard.open(
                bytes: try Self.bytes("1A2B3C4D-0000-4000-8000-000000000001.rwcard"), name: "art.drawing", in: Self.folder)
        } throws: { error in
            "\(error)".hasPrefix("art.drawing: ")
        }
    }

    @Test func bytesNoTypeRecognizesFailAsTheLastTypeWithTheNameGiven() throws {
        #expect {
            try DocumentRegistry.standard.open(bytes: Array("{}".utf8), name: "standard input", in: Self.folder)
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("standard input.drawing: ") && message.contains("\"version\" is missing")
        }
        #expect {
            try DocumentRegistry.standard.open(
                bytes: Array(repeating: 0x20, count: DrawingLimits.maxFileBytes + 1), name: "standard input", in: Self.folder)
        } throws: { error in
            "\(error)".contains("over the limit of \(DrawingLimits.maxFileBytes) bytes")
        }
    }
}
