import CEaselCairo
import CEaselFreeType
import CEaselFriBidi
import CEaselHarfBuzz
import CEaselPNG
import CEaselWebP
import EaselGeometry
import FoundationEssentials

/// What Easel needs from the system, checked by using it: the C libraries (cairo with its
/// PNG, SVG and PDF surfaces, libpng, FreeType, HarfBuzz, FriBidi, libjpeg-turbo, libwebp) and every font
/// file the font map can load. `easel doctor` prints it; a service can call it at start.
///
/// ```swift
/// let report = SystemCheck.run()
/// for problem in report.problems {
///     print("missing: \(problem.name): \(problem.detail) (Debian package \(problem.debianPackage))")
/// }
/// if let hint = report.installHint { print("to install: sudo \(hint)") }
/// ```
public enum SystemCheck {
    /// One thing checked.
    public struct Item: Sendable, Equatable, Encodable {
        /// What was checked: `cairo`, `libpng`, `font DejaVuSans.ttf`…
        public var name: String
        /// True when it is present and works.
        public var ok: Bool
        /// The version found, or what is wrong.
        public var detail: String
        /// The Debian and Ubuntu package that provides it.
        public var debianPackage: String
        /// Fedora's package, where there is one.
        public var fedoraPackage: String?
    }

    /// Everything checked, libraries first, then fonts.
    public struct Report: Sendable {
        /// Every item, in the order checked.
        public var items: [Item]
        /// The items that are missing or do not work.
        public var problems: [Item] { items.filter { !$0.ok } }
        /// `apt-get install …` with every package a problem names (nil when there is none).
        public var installHint: String? {
            var seen = Set<String>()
            let packages = problems.map(\.debianPackage).filter { seen.insert($0).inserted }
            return packages.isEmpty ? nil : "apt-get install " + packages.joined(separator: " ")
        }
    }

    /// Checks the libraries by drawing, encoding and decoding a small image and opening
    /// vector surfaces, and every font file by loading it with FreeType. Takes a few
    /// hundred milliseconds (the 78 font files are opened).
    public static func run(fonts: [FontMap.FontFile] = FontMap.allFiles) -> Report {
        var items = [cairoItem(), pngItem(), freeTypeItem()]
        // Linked, so present whenever the process runs: their versions.
        items.append(
            Item(
                name: "HarfBuzz", ok: true, detail: String(cString: hb_version_string()), debianPackage: "libharfbuzz0b",
                fedoraPackage: "harfbuzz"))
        items.append(
            Item(
                name: "FriBidi", ok: true, detail: FRIBIDI_VERSION + " (the headers it was built with)",
                debianPackage: "libfribidi0", fedoraPackage: "fribidi"))
        items.append(
            Item(
                name: "libjpeg-turbo", ok: true, detail: "the libjpeg API", debianPackage: "libjpeg62-turbo",
                fedoraPackage: "libjpeg-turbo"))
        let webp = WebPGetDecoderVersion()
        items.append(
            Item(
                name: "libwebp", ok: true, detail: "\(webp >> 16).\((webp >> 8) & 0xFF).\(webp & 0xFF)",
                debianPackage: "libwebp7", fedoraPackage: "libwebp"))
        items += fonts.map(fontItem)
        return Report(items: items)
    }

    /// cairo draws a red square and makes an SVG and a PDF page.
    static func cairoItem() -> Item {
        let version = String(cString: cairo_version_string())
        var item = Item(name: "cairo", ok: false, detail: version, debianPackage: "libcairo2", fedoraPackage: "cairo")
        do {
            let image = try paintedImage(width: 4, height: 4, Color(red: 1, green: 0, blue: 0))
            guard image.pixel(x: 2, y: 2) == RGBA8(r: 255, g: 0, b: 0, a: 255) else {
                item.detail += ": an image surface drew the wrong pixels"
                return item
            }
            for format in [VectorSurface.Format.svg, .pdf] {
                let surface = try VectorSurface(format: format, width: 4, height: 4)
                let page = try surface.context()
                try page.setSource(.black)
                try page.paint()
                guard try !surface.finish().isEmpty else {
                    item.detail += ": the \(format) surface wrote nothing"
                    return item
                }
            }
            item.ok = true
            item.detail = version + " (image, SVG and PDF surfaces)"
        } catch {
            item.detail += ": \(error)"
        }
        return item
    }

    /// An image of the size filled with `color` by cairo.
    static func paintedImage(width: Int, height: Int, _ color: Color) throws(CairoError) -> RasterImage {
        let image = try RasterImage(width: width, height: height)
        let context = try CairoContext(image: image)
        try context.setSource(color)
        try context.paint()
        return image
    }

    /// libpng decodes what Easel's PNG writer encodes, pixel for pixel.
    static func pngItem() -> Item {
        let version = String(cString: easel_png_libpng_version())
        var item = Item(name: "libpng", ok: false, detail: version, debianPackage: "libpng16-16", fedoraPackage: "libpng")
        do {
            let image = try paintedImage(width: 3, height: 2, Color(red: 0, green: 0.5, blue: 1, alpha: 0.5))
            let decoded = try PNGDecoder.decode(try PNGEncoder.encode(image))
            guard decoded.width == 3, decoded.height == 2, decoded.pixel(x: 1, y: 1) == image.pixel(x: 1, y: 1) else {
                item.detail += ": a PNG round trip changed the pixels"
                return item
            }
            item.ok = true
        } catch {
            item.detail += ": \(error)"
        }
        return item
    }

    /// FreeType starts and reports its version.
    static func freeTypeItem() -> Item {
        var item = Item(name: "FreeType", ok: false, detail: "", debianPackage: "libfreetype6", fedoraPackage: "freetype")
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            item.detail = "FT_Init_FreeType failed"
            return item
        }
        defer { FT_Done_FreeType(library) }
        var (major, minor, patch): (FT_Int, FT_Int, FT_Int) = (0, 0, 0)
        FT_Library_Version(library, &major, &minor, &patch)
        item.detail = "\(major).\(minor).\(patch)"
        item.ok = true
        return item
    }

    /// The font file exists and FreeType and cairo can use it; the detail gives its path
    /// (where Easel looks for it) and the families that draw with it.
    static func fontItem(_ file: FontMap.FontFile) -> Item {
        let users = FontMap.families.filter { $0.files.contains(file) }.compactMap(\.names.first)
        let role = users.isEmpty ? "fallback" : users.joined(separator: ", ")
        var item = Item(
            name: "font \(file)", ok: false, detail: "\(file.path) (\(role))", debianPackage: file.packages.debian,
            fedoraPackage: file.packages.fedora)
        do {
            _ = try FontLibrary.shared.face(for: file)
            item.ok = true
        } catch {
            item.detail = "\(error.description) (\(role))"
            if case .missingFile(let path) = error { item.detail = "\(path) is not installed (\(role))" }
        }
        return item
    }
}
