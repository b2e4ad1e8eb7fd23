@testable import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselTestSupport
import Foundation
import Testing

@testable import EaselRender

/// Opacity costs little more than drawing without it (one paint drawn at the opacity, a
/// layer only as large as what it holds), the pixels are those of a whole-canvas layer, and
/// an SVG says `opacity` rather than masking the page; SVG and PDF embed photos as they are.
@Suite("Opacity without whole-canvas layers, and photos embedded as they are")
struct OpacityAndEmbeddingTests {
    static func faded(_ graphics: [Graphic]) -> Scene {
        let drawing = Drawing(canvasSize: Size(width: 300, height: 200), background: .white, graphics: graphics)
        return DrawingLowering.scene(
            for: drawing, imageFolder: URL(fileURLWithPath: "/nonexistent"), images: ImageLoader(), file: "t")
    }

    static let shape = Graphic(
        kind: .ellipse, transform: GraphicTransform(center: Point(x: 120, y: 90), size: Size(width: 140, height: 90)),
        fill: Color(red: 1, green: 0.3, blue: 0.2), stroke: Stroke(color: .black, width: 4), opacity: 0.5)

    static func pixels(_ scene: Scene) throws -> [UInt8] {
        let image = try CairoSceneRenderer.rasterize(scene, pixelWidth: 300, pixelHeight: 200)
        return image.withUnsafePixels { Array($0) }
    }

    @Test func aFadedShapeIsALayerAsLargeAsItselfWithTheWholeCanvasLayersPixels() throws {
        let scene = Self.faded([Self.shape])
        let plan = GroupPlan(scene.operations)
        let begin = try #require(scene.operations.firstIndex { if case .beginGroup = $0 { return true } else { return false } })
        let bounds = try #require(plan.bounds[begin], "a fill and a stroke: a layer, bounded")
        #expect(bounds.width * bounds.height < 300 * 200 / 2, "\(bounds)")
        // The same scene with a shadow of nothing inside the group: its bounds cannot be told,
        // so the layer is the whole canvas, as every layer used to be.
        var whole = scene
        whole.operations.insert(
            .shadow(SceneShadow(operations: [], color: Color(red: 0, green: 0, blue: 0, alpha: 0), offset: .zero, blurRadius: 0)),
            at: begin + 1)
        #expect(GroupPlan(whole.operations).bounds[begin] == nil)
        #expect(try Self.pixels(scene) == Self.pixels(whole), "the bounded layer draws the whole-canvas layer's pixels")
    }

    @Test func aFadedFillAloneIsDrawnStraightAtItsOpacity() throws {
        var fillOnly = Self.shape
        fillOnly.stroke = nil
        let scene = Self.faded([fillOnly])
        let plan = GroupPlan(scene.operations)
        #expect(plan.directOpacity.values.elementsEqual([0.5]), "one paint: no layer")
        // Against a layer (the same fill and an empty one, which needs a layer): within 1 a channel.
        var layered = scene
        let fill = try #require(
            scene.operations.firstIndex { if case .fill(_, let c) = $0 { return c.green == 0.3 } else { return false } })
        layered.operations.insert(.fill(Path(), .black), at: fill + 1)
        #expect(GroupPlan(layered.operations).directOpacity.isEmpty)
        let (a, b) = (try Self.pixels(scene), try Self.pixels(layered))
        #expect(zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test func anSVGOfFadedShapesSaysOpacityRatherThanMaskingThePage() throws {
        var fillOnly = Self.shape
        fillOnly.stroke = nil
        fillOnly.transform.center = Point(x: 220, y: 120)
        let svg = String(
            decoding: try DocumentRenderer.export(Self.faded([Self.shape, fillOnly]), options: RenderOptions(format: .svg)).bytes,
            as: UTF8.self)
        #expect(!svg.contains("<mask"), "no mask over the page")
        #expect(svg.contains("opacity=\"0.5\""), "the layer is used at an opacity")
        #expect(svg.contains("fill-opacity:0.5"), "the lone fill is filled at it")
    }

    @Test func onlyCairosUniformMaskIsRewritten() {
        let uniform = """
            <defs>
            <mask id="mask0">
              <g filter="url(#alpha)">
            <rect x="0" y="0" width="400" height="300" style="fill:rgb(0%,0%,0%);fill-opacity:0.25;stroke:none;"/>
              </g>
            </mask>
            <mask id="mask1">
              <g filter="url(#alpha)">
            <circle cx="5" cy="5" r="5" style="fill:rgb(0%,0%,0%);fill-opacity:0.25;stroke:none;"/>
              </g>
            </mask>
            </defs>
            <use xlink:href="#surface5" mask="url(#mask0)"/>
            <use xlink:href="#surface6" mask="url(#mask1)"/>

            """
        let rewritten = String(decoding: SVGUniformMasks.rewrite(Array(uniform.utf8)), as: UTF8.self)
        #expect(
            !rewritten.contains("mask id=\"mask0\"") && rewritten.contains("<use xlink:href=\"#surface5\" opacity=\"0.25\"/>"))
        #expect(rewritten.contains("mask id=\"mask1\"") && rewritten.contains("mask=\"url(#mask1)\""), "any other mask stays")
    }

    @Test func anSVGsPageSizedLayersAreNotClippedToThePageButOtherClipsStay() throws {
        var clipped = Self.shape
        clipped.transform.center = Point(x: 200, y: 120)
        var square = Path()
        square.addRect(Rect(x: 0.2, y: 0.2, width: 0.5, height: 0.5))
        clipped.clip = .custom(square)
        let svg = String(
            decoding: try DocumentRenderer.export(Self.faded([Self.shape, clipped]), options: RenderOptions(format: .svg)).bytes,
            as: UTF8.self)
        // The plain faded shape's layer: no clip (a viewer renders each clip as a mask of its own).
        #expect(!svg.contains("<rect x=\"0\" y=\"0\" width=\"300\" height=\"200\"/>"), "no page-sized clip: \(svg)")
        // The clip shape is still a clip.
        #expect(svg.contains("<clipPath"), "the element's clip stays")

        // Only the exact form, on layers drawn untransformed by the page, is rewritten.
        func page(_ use: String) -> String {
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="300px" height="200px" viewBox="0 0 300 200" version="1.1">
            <defs>
            <clipPath id="clip1">
              <rect x="0" y="0" width="300" height="200"/>
            </clipPath>
            <g id="surface5" clip-path="url(#clip1)">
            <path d="M 0 0 L 10 10 Z"/>
            </g>
            </defs>
            \(use)
            </svg>

            """
        }
        let plain = String(
            decoding: SVGPageClips.rewrite(Array(page("<use xlink:href=\"#surface5\" opacity=\"0.5\"/>").utf8)), as: UTF8.self)
        #expect(!plain.contains("clip") && plain.contains("<g id=\"surface5\">\n"), "\(plain)")
        for kept in [
            "<use xlink:href=\"#surface5\" transform=\"matrix(1,0,0,1,5,0)\" opacity=\"0.5\"/>",
            "<g><use xlink:href=\"#surface5\"/></g>",
        ] {
            let result = String(decoding: SVGPageClips.rewrite(Array(page(kept).utf8)), as: UTF8.self)
            #expect(result == page(kept), "a moved or nested use keeps the clip: \(kept)")
        }
    }

    /// A card of one photo in `folder`, the photo's bytes given.
    static func card(photo: [UInt8], in folder: TemporaryFolder) throws -> LocatedDocument {
        _ = try folder.write(photo, to: "PHOTO")
        let card = Card(
            id: UUID(), backgroundColor: .white,
            imageElements: [
                ImageElement(transform: ElementTransform(size: Size(width: 600, height: 400)), imageFilename: "PHOTO")
            ],
            textElements: [])
        return try DocumentRegistry.standard.open(try Fixtures.write(card, in: folder))
    }

    @Test func anSVGEmbedsThePhotoFileItselfAndAPDFAJPEGAsItIs() throws {
        let folder = TemporaryFolder()
        let png = try TestImages.quadrants(width: 120, height: 80)
        let located = try Self.card(photo: png, in: folder)
        let svg = String(
            decoding: try DocumentRenderer.export(located, options: RenderOptions(format: .svg)).bytes, as: UTF8.self)
        #expect(svg.contains("data:image/png;base64," + Data(png).base64EncodedString()), "the file's own bytes")

        let jpeg = try #require(Self.jpeg(), "libjpeg-turbo's cjpeg makes the JPEG")
        let jpegFolder = TemporaryFolder()
        let jpegCard = try Self.card(photo: jpeg, in: jpegFolder)
        let jpegSVG = String(
            decoding: try DocumentRenderer.export(jpegCard, options: RenderOptions(format: .svg)).bytes, as: UTF8.self)
        #expect(ImageDecoder.embeddableMIMEType(of: jpeg) == "image/jpeg")
        #expect(jpegSVG.contains("data:image/jpeg;base64," + Data(jpeg).base64EncodedString()))
        let pdf = String(
            decoding: try DocumentRenderer.export(jpegCard, options: RenderOptions(format: .pdf)).bytes, as: UTF8.self)
        #expect(pdf.contains("/DCTDecode"), "the JPEG's own stream in the PDF")
    }

    @Test func aPDFEmbedsAJPEGPhotoTurnedAndPlacedAnywhere() throws {
        // Turned, off-centre and scaled: the image's extents on the page are not whole
        // points, where a padded pattern made cairo draw the photo from new pixels.
        let jpeg = try #require(Self.jpeg(), "libjpeg-turbo's cjpeg makes the JPEG")
        let folder = TemporaryFolder()
        _ = try folder.write(jpeg, to: "PHOTO")
        let card = Card(
            id: UUID(), backgroundColor: .white,
            imageElements: [
                ImageElement(
                    transform: ElementTransform(
                        size: Size(width: 613.7, height: 459.3), rotationDegrees: -6.5, offset: Point(x: -120.3, y: 241.9)),
                    imageFilename: "PHOTO")
            ],
            textElements: [])
        let located = try DocumentRegistry.standard.open(try Fixtures.write(card, in: folder))
        for options in [RenderOptions(format: .pdf), RenderOptions(format: .pdf, size: .scale(0.37))] {
            let pdf = try DocumentRenderer.export(located, options: options).bytes
            let text = String(decoding: pdf, as: UTF8.self)
            let (embedsTheJPEG, deflatesPixels) = (text.contains("/DCTDecode"), text.contains("/FlateDecode\n   /Type /XObject"))
            #expect(embedsTheJPEG, "the JPEG's own stream in the PDF")
            #expect(!deflatesPixels, "no image deflated from pixels")
            #expect(pdf.count < 8_000, "the 64x48 JPEG and the page, nothing more (\(pdf.count) bytes)")
        }
    }

    @Test func aPhotoAViewerWouldShowOtherwiseIsDrawnFromItsPixels() throws {
        let png = try TestImages.quadrants(width: 40, height: 30)
        #expect(ImageDecoder.embeddableMIMEType(of: png) == "image/png")
        // A gamma chunk: viewers apply it, Easel does not, so the pixels are encoded again.
        var gamma = Array(png[..<33])
        let body = Array("gAMA".utf8) + [0, 0, 0xB1, 0x8F]
        let crc = ReferencePNGWriter.crc32(body)
        gamma += [0, 0, 0, 4] + body + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        gamma += png[33...]
        #expect(ImageDecoder.embeddableMIMEType(of: gamma) == nil)
        // Nor with EXIF data (an orientation a browser applies to a PNG, and Easel does not).
        let exifBody = Array("eXIf".utf8) + Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0]
        let exifCRC = ReferencePNGWriter.crc32(exifBody)
        let exif =
            Array(png[..<33]) + [0, 0, 0, 8] + exifBody
            + [UInt8(exifCRC >> 24), UInt8(exifCRC >> 16 & 0xFF), UInt8(exifCRC >> 8 & 0xFF), UInt8(exifCRC & 0xFF)]
            + png[33...]
        #expect(ImageDecoder.embeddableMIMEType(of: exif) == nil)
        let gammaFolder = TemporaryFolder()
        let located = try Self.card(photo: gamma, in: gammaFolder)
        let svg = String(
            decoding: try DocumentRenderer.export(located, options: RenderOptions(format: .svg)).bytes, as: UTF8.self)
        #expect(svg.contains("data:image/png;base64,") && !svg.contains(Data(gamma).base64EncodedString()))
        // A JPEG cut short is drawn as far as it decodes, and never embedded.
        if let jpeg = Self.jpeg() { #expect(ImageDecoder.embeddableMIMEType(of: Array(jpeg.dropLast(200))) == nil) }
    }

    /// An SVG viewer as common as resvg draws nothing for a greyscale JPEG: an SVG holds such
    /// a photo as a PNG of the pixels Easel decoded (Easel's own writer, not cairo's, which
    /// took seconds on a phone's photo), a PDF the JPEG as it is.
    @Test func anSVGHoldsAGreyscaleJPEGAsAPNGOfItsPixels() throws {
        let jpeg = try #require(Self.jpeg(greyscale: true), "libjpeg-turbo's cjpeg makes the JPEG")
        #expect(ImageDecoder.embeddableMIMEType(of: jpeg) == "image/jpeg")
        #expect(ImageDecoder.embeddableMIMEType(of: jpeg, inSVG: true) == nil)
        let folder = TemporaryFolder()
        let card = try Self.card(photo: jpeg, in: folder)
        let svg = String(decoding: try DocumentRenderer.export(card, options: RenderOptions(format: .svg)).bytes, as: UTF8.self)
        let prefix = "data:image/png;base64,"
        let start = try #require(svg.range(of: prefix)?.upperBound, "a PNG in the SVG")
        let base64 = svg[start...].prefix { $0 != "\"" }
        let embedded = try #require(Data(base64Encoded: String(base64)))
        #expect(!svg.contains("data:image/jpeg"))
        let decoded = try ImageDecoder.decodePixels(jpeg), fromSVG = try ImageDecoder.decodePixels(Array(embedded))
        #expect(fromSVG.width == decoded.width && fromSVG.height == decoded.height)
        #expect(
            (0..<decoded.height).allSatisfy { row in
                memcmp(decoded.bytes + row * decoded.stride, fromSVG.bytes + row * fromSVG.stride, decoded.width * 4) == 0
            }, "the same pixels")
        let pdf = String(decoding: try DocumentRenderer.export(card, options: RenderOptions(format: .pdf)).bytes, as: UTF8.self)
        #expect(pdf.contains("/DCTDecode"), "the JPEG's own stream in the PDF")
    }

    /// A small JPEG made by libjpeg-turbo's cjpeg from a PPM, or nil without cjpeg.
    static func jpeg(greyscale: Bool = false) -> [UInt8]? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg") else { return nil }
        let folder = TemporaryFolder()
        var ppm = Array("P6\n64 48\n255\n".utf8)
        for y in 0..<48 { for x in 0..<64 { ppm += [UInt8(x * 4), UInt8(y * 5), UInt8((x + y) * 2)] } }
        guard let source = try? folder.write(ppm, to: "in.ppm") else { return nil }
        let out = folder.file("out.jpg")
        guard
            let process = try? Process.run(
                URL(fileURLWithPath: "/usr/bin/cjpeg"),
                arguments: (greyscale ? ["-grayscale"] : []) + ["-outfile", out.path, source.path])
        else { return nil }
        process.waitUntilExit()
        return (try? Data(contentsOf: out)).map(Array.init)
    }
}
