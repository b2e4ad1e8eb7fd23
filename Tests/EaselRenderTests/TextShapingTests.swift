import Testing
import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo
import EaselTestSupport

/// Text laid out by HarfBuzz and FriBidi, checked on glyphs and pixels.
@Suite("Text shaping")
struct TextShapingTests {
    static let fonts = FontLibrary.shared

    static func layout(_ text: String, font: String = "Gill Sans") throws -> TextLine {
        let (face, features, _) = try fonts.resolve(named: font)
        return TextLine.layout(
            text, primary: face, features: features, fallbacks: fonts.fallbackFaces,
            emoji: try fonts.face(for: FontMap.colorEmoji))
    }

    @Test func kerningPairsComeCloser() throws {
        for pair in ["AV", "To"] {
            let together = try Self.layout(pair).width
            let apart = try Self.layout(String(pair.first!)).width + Self.layout(String(pair.last!)).width
            #expect(together < apart - 0.01, "\(pair): \(together) vs \(apart)")
        }
    }

    @Test func hebrewReadsRightToLeftAndNumbersLeftToRight() throws {
        let line = try Self.layout("שלום 123")
        let face = try Self.fonts.face(for: line.runs[0].font)
        let glyphs = line.runs.flatMap(\.glyphs).sorted { $0.x < $1.x }.map(\.index)
        // Visually: "123", a space, then the word with its last letter (final mem) leftmost.
        #expect(glyphs.first == UInt(try Self.fonts.face(named: "Gill Sans").face.glyph(for: "1")), "\(glyphs)")
        let finalMem = try #require(Self.fonts.fallbackFaces.first { $0.hasGlyph(for: "ם") })
        #expect(glyphs.contains(UInt(finalMem.glyph(for: "ם"))))
        #expect(line.missing.isEmpty)
        _ = face
    }

    @Test func complexScriptsUseTheirFontsAndMarksSitOffThePen() throws {
        for (text, font) in [
            ("สวัสดีครับ", "NotoSansThai-Regular.ttf"), ("नमस्ते", "NotoSansDevanagari-Regular.ttf"),
            ("مرحبا", "NotoSansArabic-Regular.ttf"),
        ] {
            let line = try Self.layout(text)
            #expect(line.runs.map(\.font.fileName) == [font], "\(text): \(line.runs.map(\.font.fileName))")
            #expect(line.runs.allSatisfy { $0.glyphs.allSatisfy { $0.index != 0 } }, "\(text): no missing-glyph box")
        }
        // Thai marks stack above their base: some glyph sits off the baseline or shares a pen position.
        let thai = try Self.layout("สวัสดีครับ").runs[0].glyphs
        #expect(Set(thai.map(\.x)).count < thai.count || thai.contains { $0.y != 0 })
        // Arabic joins: the shaped word has fewer or different glyphs than its letters' isolated forms.
        let arabic = try Self.layout("مرحبا").runs[0].glyphs.map(\.index)
        let isolated = try "مرحبا".map { try Self.layout(String($0)).runs[0].glyphs[0].index }
        #expect(arabic != isolated.reversed())
    }

    @Test func emojiSequencesAreOneColourGlyph() throws {
        for sequence in ["👨‍👩‍👧‍👦", "🇫🇷", "❤️"] {
            let line = try Self.layout(sequence)
            #expect(line.runs.count == 1 && line.runs[0].font == FontMap.colorEmoji, "\(sequence)")
            #expect(line.runs[0].glyphs.count == 1, "\(sequence) is one glyph: \(line.runs[0].glyphs.count)")
        }
        // Drawn in colour: the grinning face's yellow.
        let drawing = Drawing(
            canvasSize: Size(width: 120, height: 120), background: .white,
            graphics: [
                Graphic(
                    kind: .text(TextContent(string: "😀", fontFamily: "Gill Sans", fontSize: 90)),
                    transform: GraphicTransform(center: Point(x: 60, y: 60), size: Size(width: 120, height: 120)),
                    fill: .black)
            ])
        let folder = TemporaryFolder()
        let url = try folder.write(DrawingEncoder.encode(drawing), to: "e.drawing")
        let image = try DocumentRenderer.render(LocatedDocument(drawing, at: url)).image
        var saturated = 0
        for y in 0..<120 {
            for x in 0..<120 {
                let p = image.pixel(x: x, y: y)
                if Int(p.r) - Int(p.b) > 100 && Int(p.g) - Int(p.b) > 60 { saturated += 1 }
            }
        }
        #expect(saturated > 500, "yellow pixels: \(saturated)")
    }

    @Test func aCharacterNoFontHasIsAWarningNamingTheElement() throws {
        let card = Card(
            backgroundColor: .white,
            textElements: [
                TextElement(transform: ElementTransform(size: Size(width: 800, height: 200)), text: "ok"),
                TextElement(
                    transform: ElementTransform(size: Size(width: 800, height: 200)), text: "a \u{10FFFD} b"),
            ])
        let folder = TemporaryFolder()
        let url = try folder.write(try CardEncoder.encode(card, file: "c"), to: "c.rwcard")
        let warnings = try DocumentRenderer.render(LocatedDocument(card, at: url)).warnings
        #expect(warnings.map(\.keyPath) == ["textElements[1]"], "\(warnings)")
        #expect(warnings.first?.message.contains("U+10FFFD") == true)
    }

    @Test func theSameTextGivesTheSameBytesEveryTime() throws {
        let drawing = Drawing(
            canvasSize: Size(width: 400, height: 80), background: .white,
            graphics: [
                Graphic(
                    kind: .text(TextContent(string: "AV שלום 👨‍👩‍👧 नमस्ते", fontFamily: "Gill Sans", fontSize: 30)),
                    transform: GraphicTransform(center: Point(x: 200, y: 40), size: Size(width: 400, height: 80)),
                    fill: .black)
            ])
        let folder = TemporaryFolder()
        let url = try folder.write(DrawingEncoder.encode(drawing), to: "d.drawing")
        let first = try DocumentRenderer.export(LocatedDocument(drawing, at: url)).bytes
        let second = try DocumentRenderer.export(LocatedDocument(drawing, at: url)).bytes
        #expect(first == second)
    }
}

/// Large images are rasterised in strips on several cores: the same pixels however many
/// cores draw them, and within rounding of one piece.
@Suite("Rasterising in strips")
struct StripRasterTests {
    @Test func theSamePixelsWhateverTheCoresAndCloseToOnePiece() throws {
        let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")
        for name in ["1A2B3C4D-0000-4000-8000-000000000001.rwcard", "Showcase.drawing"] {
            let scene = try DocumentRenderer.scene(for: try DocumentRegistry.standard.open(samples.appendingPathComponent(name)))
            let width = Int(scene.canvasSize.width * 1.3), height = Int(scene.canvasSize.height * 1.3)
            let one = try CairoSceneRenderer.rasterize(scene, pixelWidth: width, pixelHeight: height, threads: 1)
            let bytes = one.withUnsafePixels { Array($0) }
            for threads in [2, 3] {
                let many = try CairoSceneRenderer.rasterize(scene, pixelWidth: width, pixelHeight: height, threads: threads)
                #expect(many.withUnsafePixels { Array($0) } == bytes, "\(name): \(threads) cores")
            }
            let whole = try CairoSceneRenderer.rasterize(scene, pixelWidth: width, pixelHeight: height, stripRows: height)
            var largest = 0
            whole.withUnsafePixels { a in
                for i in 0..<a.count where a[i] != bytes[i] { largest = max(largest, abs(Int(a[i]) - Int(bytes[i]))) }
            }
            #expect(largest <= 2, "\(name): strips differ from one piece by rounding only (\(largest))")
        }
    }
}
