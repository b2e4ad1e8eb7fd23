import Testing
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo
import EaselTestSupport

@Suite("Output formats")
struct OutputFormatTests {
    let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")

    func sampleCard() throws -> (LocatedDocument, URL) {
        let url = samples.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard")
        return (try DocumentRegistry.standard.open(url), url)
    }

    /// Collects element names while parsing XML.
    final class ElementCollector: NSObject, XMLParserDelegate {
        var names: [String] = []
        var rootAttributes: [String: String] = [:]
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if names.isEmpty { rootAttributes = attributes }
            names.append(name)
        }
    }

    @Test func oneCardAsPNGSVGAndPDF() throws {
        let (card, _) = try sampleCard()
        let png = try DocumentRenderer.export(card, options: RenderOptions(format: .png, size: .thumbnail))
        let image = try PNGDecoder.decode(png.bytes)
        #expect(image.width == 260 && image.height == 400)

        let svg = try DocumentRenderer.export(card, options: RenderOptions(format: .svg, size: .thumbnail))
        let collector = ElementCollector()
        let parser = XMLParser(data: Data(svg.bytes))
        parser.delegate = collector
        #expect(parser.parse(), "the SVG is well-formed XML")
        #expect(collector.names.first == "svg")
        #expect(collector.rootAttributes["width"] == "260px" && collector.rootAttributes["height"] == "400px")
        #expect(collector.names.contains("path"), "shapes and glyphs are paths")
        #expect(collector.names.contains("image"), "images are embedded")
        #expect(collector.names.contains("clipPath"), "clip shapes are kept as clips")

        let pdf = try DocumentRenderer.export(card, options: RenderOptions(format: .pdf, size: .share))
        let text = String(decoding: pdf.bytes, as: UTF8.self)
        #expect(pdf.bytes.starts(with: Array("%PDF-".utf8)))
        #expect(text.hasSuffix("%%EOF\n"))
        let pages =
            text.components(separatedBy: "/Type /Page").count - 1 - (text.components(separatedBy: "/Type /Pages").count - 1)
        #expect(pages == 1)
        #expect(text.contains("/MediaBox [ 0 0 1300 2000 ]"))
    }

    @Test func sizesScaleWidthHeightAndPresets() throws {
        let canvas = Card.canvasSize
        #expect(try OutputSize.share.pixelSize(for: canvas) == (1300, 2000))
        #expect(try OutputSize.thumbnail.pixelSize(for: canvas) == (260, 400))
        #expect(try OutputSize.width(650).pixelSize(for: canvas) == (650, 1000), "aspect kept")
        #expect(try OutputSize.height(100).pixelSize(for: canvas) == (65, 100))
        #expect(try OutputSize.exact(width: 300, height: 300).pixelSize(for: canvas) == (300, 300), "stretched when told")
    }

    @Test func anOutputOverTheLimitFailsBeforeAllocating() throws {
        let (card, _) = try sampleCard()
        #expect { try DocumentRenderer.render(card, options: RenderOptions(size: .scale(20))) } throws: { error in
            guard case RenderError.cairo(.tooLarge(26000, 40000, _)) = error else { return false }
            return true
        }
        #expect(throws: RenderError.self) { try OutputSize.scale(.infinity).pixelSize(for: Card.canvasSize) }
        #expect(throws: RenderError.self) { try OutputSize.scale(1e-9).pixelSize(for: Card.canvasSize) }
    }

    @Test func renderingOnSeveralThreadsAtOnceGivesTheSameBytes() throws {
        let documents = try FileManager.default.contentsOfDirectory(atPath: samples.path)
            .filter { $0.hasSuffix(".rwcard") || $0.hasSuffix(".drawing") }.sorted()
            .map { samples.appendingPathComponent($0) }
        @Sendable func exportAll(_ url: URL) throws -> [UInt8] {
            let document = try DocumentRegistry.standard.open(url)
            return try DocumentRenderer.export(document, options: RenderOptions(size: .scale(0.25))).bytes
        }
        let serial = try documents.map(exportAll)
        let results = ResultBox(count: documents.count * 4)
        DispatchQueue.concurrentPerform(iterations: documents.count * 4) { i in
            results.set(i, try? exportAll(documents[i % documents.count]))
        }
        for i in 0..<documents.count * 4 {
            #expect(
                results.get(i) == serial[i % documents.count],
                "\(documents[i % documents.count].lastPathComponent) on a worker thread")
        }
    }

    @Test func theDefaultPNGSettingsAreLevel1WithTheUpFilter() {
        #expect(PNGEncodingOptions.default == PNGEncodingOptions(compressionLevel: 1, filters: .up, colorMode: .auto))
    }
}

/// Thread-safe result slots for concurrentPerform.
final class ResultBox: @unchecked Sendable {
    private var slots: [[UInt8]?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: [UInt8]?) {
        lock.lock()
        slots[i] = value
        lock.unlock()
    }
    func get(_ i: Int) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        return slots[i]
    }
}
