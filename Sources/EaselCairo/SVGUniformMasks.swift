/// Rewrites the masks cairo's SVG writer makes for a layer painted at an opacity
/// (`cairo_paint_with_alpha`) into the `opacity` attribute they amount to.
///
/// Cairo 1.16 writes a faded layer as a `<mask>` holding a rectangle over the whole page
/// at the opacity, passed through an alpha filter, and a `<use … mask="url(#maskN)"/>` of the
/// layer. A viewer renders that mask over the whole page for every faded element (resvg took
/// 6.5 s on 100 faded shapes of a card against 27 ms without the fading), while the mask only
/// ever says "this opacity everywhere". `opacity="A"` on the `<use>` says the same, and costs
/// nothing. Only masks of exactly cairo's form are rewritten; anything else is left as it is,
/// so a cairo that writes otherwise gets its SVG unchanged.
enum SVGUniformMasks {
    /// `svg` with every uniform mask cairo wrote replaced by an `opacity` attribute.
    static func rewrite(_ svg: [UInt8]) -> [UInt8] {
        let opening = Array("<mask id=\"".utf8)
        guard let first = OutputBytes.find(opening, in: svg, from: 0) else { return svg }
        // The masks: where each definition starts and ends, its id and its opacity.
        var masks: [(range: Range<Int>, id: [UInt8], opacity: [UInt8])] = []
        var at = first
        while let start = OutputBytes.find(opening, in: svg, from: at) {
            at = start + opening.count
            guard let parsed = uniformMask(in: svg, at: start) else { continue }
            masks.append(parsed)
            at = parsed.range.upperBound
        }
        guard !masks.isEmpty else { return svg }
        var opacityByID: [[UInt8]: [UInt8]] = [:]
        for mask in masks { opacityByID[mask.id] = mask.opacity }
        // Everything but the definitions, each reference turned into an opacity.
        return replacingReferences(in: OutputBytes.removing(masks.map(\.range), from: svg), opacityByID: opacityByID)
    }

    /// The mask definition starting at `start` when it has exactly the form cairo gives a
    /// uniform opacity: its range (through its line end), id and opacity.
    static func uniformMask(in svg: [UInt8], at start: Int) -> (range: Range<Int>, id: [UInt8], opacity: [UInt8])? {
        let closing = Array("</mask>\n".utf8)
        guard let end = OutputBytes.find(closing, in: svg, from: start), end - start < 512 else { return nil }
        let text = String(decoding: svg[start..<end], as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 5, lines[4].isEmpty, lines[1] == "  <g filter=\"url(#alpha)\">", lines[3] == "  </g>",
            let id = Self.between(lines[0], "<mask id=\"", "\">"), id.allSatisfy({ $0.isLetter || $0.isNumber }),
            let opacity = Self.between(lines[2], "style=\"fill:rgb(0%,0%,0%);fill-opacity:", ";stroke:none;\"/>"),
            Double(opacity) != nil, lines[2].hasPrefix("<rect x=\"0\" y=\"0\" width=\"")
        else { return nil }
        return (start..<(end + closing.count), Array(id.utf8), Array(opacity.utf8))
    }

    /// Replaces each ` mask="url(#ID)"` whose ID is a rewritten mask with ` opacity="A"`.
    static func replacingReferences(in svg: [UInt8], opacityByID: [[UInt8]: [UInt8]]) -> [UInt8] {
        let reference = Array(" mask=\"url(#".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(svg.count)
        var copied = 0, at = 0
        while let start = OutputBytes.find(reference, in: svg, from: at) {
            let idStart = start + reference.count
            at = idStart
            guard let close = OutputBytes.find(Array(")\"".utf8), in: svg, from: idStart), close - idStart < 64,
                let opacity = opacityByID[Array(svg[idStart..<close])]
            else { continue }
            result += svg[copied..<start]
            result += Array(" opacity=\"".utf8) + opacity + [UInt8(ascii: "\"")]
            copied = close + 2
            at = copied
        }
        result += svg[copied...]
        return result
    }

    private static func between(_ line: Substring, _ prefix: String, _ suffix: String) -> String? {
        guard let from = line.firstRange(of: prefix), let to = line[from.upperBound...].firstRange(of: suffix),
            to.upperBound == line.endIndex
        else { return nil }
        return String(line[from.upperBound..<to.lowerBound])
    }
}
