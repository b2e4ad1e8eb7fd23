/// Drops the clip cairo's SVG writer puts on a layer that covers the whole page.
///
/// Cairo 1.16 writes each layer (`cairo_push_group`) as a `<g id="surfaceN">` in the
/// definitions, clipped to the layer's extents by a `<clipPath>` of one rectangle, and draws
/// it with a `<use>`. A viewer renders each clip path as a mask of its own: over 100 faded
/// shapes, resvg took 2.7 times as long as without the fading, and 1.5 times once those clips
/// were gone. A layer made on an SVG surface has the page's extents (Easel bounds layers only
/// on pixels, `CairoContext.clipToPixels`), and a clip to the whole page, on a layer drawn
/// where it stands, changes nothing a viewer shows: the page ends there anyway.
///
/// Only clips of exactly that form are dropped: a rectangle at the origin as large as the
/// `viewBox`, on a layer used nowhere but by `<use>` elements of the page itself (after the
/// definitions) with no transform. A clip of any other size or use is left as it is.
enum SVGPageClips {
    /// `svg` without the page-sized clips of its page-sized layers.
    static func rewrite(_ svg: [UInt8]) -> [UInt8] {
        guard let page = viewBoxSize(svg), let definitionsEnd = OutputBytes.find(Array("</defs>".utf8), in: svg, from: 0)
        else { return svg }
        // Each layer whose clip is the page: the clip's definition and the attribute naming it.
        let rectangle = Array("  <rect x=\"0\" y=\"0\" width=\"\(page.width)\" height=\"\(page.height)\"/>\n</clipPath>\n".utf8)
        var candidates: [[UInt8]: (definition: Range<Int>, attribute: Range<Int>)] = [:]
        let opening = Array("<clipPath id=\"".utf8)
        var at = 0
        while let start = OutputBytes.find(opening, in: svg, from: at), start < definitionsEnd {
            at = start + opening.count
            guard let idEnd = OutputBytes.find(Array("\">\n".utf8), in: svg, from: at), idEnd - at < 32 else { continue }
            let clipID = Array(svg[at..<idEnd])
            let body = idEnd + 3
            guard svg.count >= body + rectangle.count, Array(svg[body..<(body + rectangle.count)]) == rectangle else { continue }
            // The layer it clips, on the next line.
            let layer = body + rectangle.count
            let layerOpening = Array("<g id=\"surface".utf8)
            let attribute = Array("\" clip-path=\"url(#".utf8) + clipID + Array(")\">\n".utf8)
            guard svg.count >= layer + layerOpening.count, Array(svg[layer..<(layer + layerOpening.count)]) == layerOpening,
                let attributeStart = OutputBytes.find(attribute, in: svg, from: layer + layerOpening.count),
                attributeStart - layer < 48
            else { continue }
            let surfaceID = Array(svg[(layer + layerOpening.count)..<attributeStart])
            guard !surfaceID.isEmpty, surfaceID.allSatisfy({ (48...57).contains($0) }) else { continue }
            // From the space before `clip-path` through its closing quote; `>` stays.
            candidates[surfaceID] = (start..<layer, (attributeStart + 1)..<(attributeStart + attribute.count - 2))
            at = layer
        }
        guard !candidates.isEmpty else { return svg }
        // Keep only layers every reference to which is an untransformed `<use>` of the page.
        let reference = Array("\"#surface".utf8)
        let use = Array("<use xlink:href=\"#surface".utf8)
        at = 0
        while let found = OutputBytes.find(reference, in: svg, from: at) {
            at = found + reference.count
            var end = at
            while end < svg.count, (48...57).contains(svg[end]) { end += 1 }
            let surfaceID = Array(svg[at..<end])
            guard candidates[surfaceID] != nil else { continue }
            let lineStart = (svg[..<found].lastIndex(of: 10) ?? -1) + 1
            let lineEnd = svg[found...].firstIndex(of: 10) ?? svg.count
            let line = svg[lineStart..<lineEnd]
            let isPlainUse =
                lineStart > definitionsEnd && lineStart + use.count - reference.count == found
                && Array(svg[lineStart..<(lineStart + use.count)]) == use
                && OutputBytes.find(Array(" transform=".utf8), in: Array(line), from: 0) == nil
            if !isPlainUse { candidates[surfaceID] = nil }
        }
        // Everything but the dropped definitions and attributes.
        let cuts = candidates.values.flatMap { [$0.definition, $0.attribute] }.sorted { $0.lowerBound < $1.lowerBound }
        return OutputBytes.removing(cuts, from: svg)
    }

    /// The width and height of the `viewBox="0 0 W H"` in the SVG's opening tag, as written.
    static func viewBoxSize(_ svg: [UInt8]) -> (width: String, height: String)? {
        let head = Array(svg.prefix(1024))
        let marker = Array("viewBox=\"0 0 ".utf8)
        guard let start = OutputBytes.find(marker, in: head, from: 0),
            let end = head[(start + marker.count)...].firstIndex(of: UInt8(ascii: "\""))
        else { return nil }
        let parts = String(decoding: head[(start + marker.count)..<end], as: UTF8.self).split(separator: " ")
        guard parts.count == 2, parts.allSatisfy({ Double($0) != nil }) else { return nil }
        return (String(parts[0]), String(parts[1]))
    }
}
