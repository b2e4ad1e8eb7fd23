/// Photos in a PDF as rows deflated by Easel, instead of by cairo.
///
/// Cairo 1.16's PDF writer takes a JPEG file for an image (MIME data) but no PNG: it deflates
/// every other image's pixels itself, with zlib's default level, which took two thirds of a
/// card's PDF export (five times its PNG export for three 1000x750 photos). So an opaque
/// image is given to cairo as a stand-in JPEG — a header of the image's size and a token,
/// no pixels — which cairo copies into the file as the image's stream; once the file is
/// finished, each stand-in stream is replaced by the image's PNG rows deflated by Easel's
/// own encoder (ISA-L), marked with PNG predictors (`/DecodeParms << /Predictor 15 ... >>`,
/// which every PDF reader decodes), and the cross-reference table is moved along.
///
/// Nothing is guessed: a stand-in must be found inside an image stream exactly as cairo
/// writes one, and every object the table lists must start where it says after the change;
/// otherwise `rewrite` gives nil, and the caller draws the PDF again without stand-ins.
public enum PDFImageStreams {
    /// An image's pixels as PDF wants them for `/FlateDecode` with PNG predictors: rows of
    /// 8-bit RGB, each after its PNG filter byte, deflated as one zlib stream.
    public struct FlateImage: Sendable {
        /// Pixels in a row.
        public let columns: Int
        /// Rows.
        public let rows: Int
        /// The zlib stream (a PNG's IDAT data, put together).
        public let data: [UInt8]

        /// The rows of `pixels` as Easel's PNG encoder deflates them, or nil when the image is
        /// not opaque (a PDF image would need a separate mask; cairo makes that one).
        public init?(opaque pixels: PixelBuffer) throws {
            let png = try PNGEncoder.encode(try RasterImage(sharing: pixels), options: .default)
            guard let data = Self.idatData(ofRGB: png) else { return nil }
            (columns, rows, self.data) = (pixels.width, pixels.height, data)
        }

        /// The IDAT chunks' data of an 8-bit RGB, non-interlaced PNG, joined; nil for any
        /// other PNG (with alpha, say) or one whose chunks do not add up.
        static func idatData(ofRGB png: [UInt8]) -> [UInt8]? {
            guard png.count > 33, png[12..<16].elementsEqual("IHDR".utf8), png[24] == 8, png[25] == 2, png[28] == 0
            else { return nil }
            var data: [UInt8] = []
            var offset = 8
            while offset + 12 <= png.count {
                let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                guard length <= png.count - offset - 12 else { return nil }
                let type = png[offset + 4..<offset + 8]
                if type.elementsEqual("IDAT".utf8) { data += png[offset + 8..<offset + 8 + length] }
                if type.elementsEqual("IEND".utf8) { return data.isEmpty ? nil : data }
                offset += 12 + length
            }
            return nil
        }
    }

    /// A JPEG header for an image of `width` x `height` with three components, carrying
    /// `token` in a comment, and no pixels: what cairo reads the image's size from and copies
    /// into the PDF as the image's stream.
    static func standIn(width: Int, height: Int, token: [UInt8]) -> [UInt8] {
        let comment: [UInt8] = [0xFF, 0xFE] + bigEndian16(2 + token.count) + token
        let frame: [UInt8] =
            [0xFF, 0xC0, 0x00, 0x11, 0x08] + bigEndian16(height) + bigEndian16(width)
            + [0x03, 0x01, 0x11, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00]
        return [0xFF, 0xD8] + comment + frame + [0xFF, 0xD9]
    }

    /// A new token: 32 random hexadecimal digits after `EASEL`, which no deflated stream or
    /// text cairo writes will hold by chance.
    static func newToken() -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var generator = SystemRandomNumberGenerator()
        return Array("EASEL".utf8) + (0..<32).map { _ in digits[Int(generator.next() % 16)] }
    }

    private static func bigEndian16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// `pdf` with each stand-in's image stream replaced by its image's deflated rows, and the
    /// cross-reference table moved along; nil when the file is not as cairo writes it.
    static func rewrite(_ pdf: [UInt8], replacing images: [(standIn: [UInt8], image: FlateImage)]) -> [UInt8]? {
        var edits: [(range: Range<Int>, bytes: [UInt8])] = []
        for (standIn, image) in images {
            var from = 0
            while let at = OutputBytes.find(standIn, in: pdf, from: from) {
                guard let edit = streamEdit(pdf, standInAt: at..<at + standIn.count, image: image) else { return nil }
                edits.append(edit)
                from = at + standIn.count
            }
        }
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
        guard zip(edits, edits.dropFirst()).allSatisfy({ $0.range.upperBound <= $1.range.lowerBound }) else { return nil }
        guard let table = CrossReference(pdf) else { return nil }
        // The file with the edits made, and how far each old offset moves.
        let out = OutputBytes.replacing(edits, in: pdf)
        func moved(_ offset: Int) -> Int? {
            var shift = 0
            for edit in edits {
                if edit.range.upperBound <= offset {
                    shift += edit.bytes.count - edit.range.count
                } else if edit.range.lowerBound < offset {
                    return nil  // an object starts inside a replaced stream: not cairo's file
                }
            }
            return offset + shift
        }
        return table.rewritten(in: out, moving: moved)
    }

    /// The replacement of the image object whose stream is the stand-in at `standIn`: its
    /// dictionary, with the deflated rows' filter and length, and the rows.
    private static func streamEdit(_ pdf: [UInt8], standInAt standIn: Range<Int>, image: FlateImage) -> (
        range: Range<Int>, bytes: [UInt8]
    )? {
        let opening = Array(">>\nstream\n".utf8), closing = Array("\nendstream\n".utf8)
        guard standIn.lowerBound >= opening.count,
            pdf[standIn.lowerBound - opening.count..<standIn.lowerBound].elementsEqual(opening),
            standIn.upperBound + closing.count <= pdf.count,
            pdf[standIn.upperBound..<standIn.upperBound + closing.count].elementsEqual(closing),
            let header = OutputBytes.findLast(Array(" 0 obj\n<<".utf8), in: pdf, before: standIn.lowerBound)
        else { return nil }
        let dictionaryStart = header + " 0 obj\n".utf8.count
        let dictionary = String(decoding: pdf[dictionaryStart..<standIn.lowerBound - "stream\n".utf8.count], as: UTF8.self)
        // The image object exactly as cairo writes one for a JPEG of this size.
        let lines = dictionary.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }
        guard lines.first?.hasPrefix("<< /Length ") == true, lines.last == ">>",
            lines.contains("/Subtype /Image"), lines.contains("/Filter /DCTDecode"),
            lines.contains("/Width \(image.columns)"), lines.contains("/Height \(image.rows)"),
            lines.contains("/ColorSpace /DeviceRGB"), lines.contains("/BitsPerComponent 8")
        else { return nil }
        var entries = lines.dropFirst().dropLast().filter { $0 != "/Filter /DCTDecode" }.map(String.init)
        entries.insert("/Length \(image.data.count)", at: 0)
        entries += [
            "/Filter /FlateDecode",
            "/DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns \(image.columns) >>",
        ]
        let rewritten = "<< " + entries.joined(separator: "\n   ") + "\n>>\nstream\n"
        return (dictionaryStart..<standIn.upperBound, Array(rewritten.utf8) + image.data)
    }

    /// A PDF's classic cross-reference table (cairo writes one subsection, `0 N`, of 20-byte
    /// entries) and the `startxref` that points at it.
    private struct CrossReference {
        let tableStart: Int  // where "xref\n" starts
        let entries: [(offset: Int, inUse: Bool)]

        init?(_ pdf: [UInt8]) {
            let marker = Array("\nxref\n0 ".utf8)
            guard let xref = OutputBytes.findLast(marker, in: pdf, before: pdf.count) else { return nil }
            tableStart = xref + 1
            var index = xref + marker.count
            var count = 0
            while index < pdf.count, pdf[index] >= 0x30, pdf[index] <= 0x39, count < 100_000_000 {
                count = count * 10 + Int(pdf[index] - 0x30)
                index += 1
            }
            guard index < pdf.count, pdf[index] == 0x0A, count > 0, index + 1 + count * 20 <= pdf.count else { return nil }
            index += 1
            var entries: [(Int, Bool)] = []
            for entry in 0..<count {
                let line = pdf[index + entry * 20..<index + entry * 20 + 20]
                guard let offset = Int(String(decoding: line.prefix(10), as: UTF8.self)) else { return nil }
                let kind = line[line.startIndex + 17]
                guard kind == UInt8(ascii: "n") || kind == UInt8(ascii: "f") else { return nil }
                entries.append((offset, kind == UInt8(ascii: "n")))
            }
            self.entries = entries
        }

        /// `pdf` (already edited) with the table's offsets and `startxref` moved by `moved`,
        /// once each listed object is found at its new offset; nil otherwise.
        func rewritten(in pdf: [UInt8], moving moved: (Int) -> Int?) -> [UInt8]? {
            guard let newStart = moved(tableStart) else { return nil }
            var out = pdf
            let header = "xref\n0 \(entries.count)\n".utf8.count
            for (number, entry) in entries.enumerated() where entry.inUse {
                guard let offset = moved(entry.offset), offset < out.count,
                    out[offset...].starts(with: "\(number) 0 obj".utf8)
                else { return nil }
                let digits = Array(String(offset).utf8)
                guard digits.count <= 10 else { return nil }
                let at = newStart + header + number * 20
                out.replaceSubrange(at..<at + 10, with: Array(repeating: UInt8(ascii: "0"), count: 10 - digits.count) + digits)
            }
            let marker = Array("\nstartxref\n".utf8)
            guard let startxref = OutputBytes.findLast(marker, in: out, before: out.count).map({ $0 + marker.count }),
                let end = out[startxref...].firstIndex(of: 0x0A),
                Int(String(decoding: out[startxref..<end], as: UTF8.self)) == tableStart
            else { return nil }
            out.replaceSubrange(startxref..<end, with: Array(String(newStart).utf8))
            return out
        }
    }
}
