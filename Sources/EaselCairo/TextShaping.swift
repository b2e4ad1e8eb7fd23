import CEaselFriBidi
import CEaselHarfBuzz

/// A glyph as HarfBuzz placed it, at size 1 (one unit per em), y up as in fonts.
public struct ShapedGlyph: Sendable, Equatable {
    /// The glyph's index in its font.
    public var index: UInt32
    /// How far the pen moves after it.
    public var advance: Double
    /// Where it is drawn relative to the pen (marks sit off the pen).
    public var xOffset: Double, yOffset: Double
    /// The index of the first scalar of the cluster it belongs to, in the shaped text.
    public var cluster: Int
}

/// A HarfBuzz font read from the font file itself (HarfBuzz's own OpenType functions, no
/// name lookup), owned by a `FontFace`.
final class HarfBuzzFont: @unchecked Sendable {
    let font: OpaquePointer  // hb_font_t, at its default scale of one unit per font unit
    let unitsPerEm: Double

    /// The font for face `faceIndex` of the file at `path`, or nil when HarfBuzz cannot read it.
    init?(path: String, faceIndex: Int) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
        defer { hb_blob_destroy(blob) }
        let face = hb_face_create(blob, UInt32(faceIndex))
        defer { hb_face_destroy(face) }
        let upem = hb_face_get_upem(face)
        guard upem > 0, let font = hb_font_create(face) else { return nil }
        self.font = font
        unitsPerEm = Double(upem)
    }

    deinit { hb_font_destroy(font) }
}

extension FontFace {
    /// True when the font maps `scalar` to a glyph of its own (not the missing-glyph box).
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        guard let shaping else { return glyph(for: scalar) != 0 }
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(shaping.font, scalar.value, &glyph) != 0 && glyph != 0
    }

    /// Shapes `scalars[range]` (the rest is context, for joining scripts) in one direction and
    /// script, with OpenType `features` switched on (four-letter tags such as "smcp").
    /// Glyphs come in visual order, left to right, at size 1.
    public func shape(
        _ scalars: [UInt32], range: Range<Int>, rightToLeft: Bool, script: UInt32, features: [String] = []
    ) -> [ShapedGlyph] {
        guard let shaping, !range.isEmpty else { return [] }
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        scalars.withUnsafeBufferPointer { text in
            hb_buffer_add_utf32(buffer, text.baseAddress, Int32(text.count), UInt32(range.lowerBound), Int32(range.count))
        }
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, hb_script_t(script))
        hb_buffer_set_language(buffer, hb_language_get_default())
        hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS)
        var parsed = features.compactMap { tag -> hb_feature_t? in
            var feature = hb_feature_t()
            return hb_feature_from_string(tag, Int32(tag.utf8.count), &feature) != 0 ? feature : nil
        }
        hb_shape(shaping.font, buffer, &parsed, UInt32(parsed.count))
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return [] }
        let unit = 1 / shaping.unitsPerEm
        return (0..<Int(count)).map { i in
            ShapedGlyph(
                index: infos[i].codepoint, advance: Double(positions[i].x_advance) * unit,
                xOffset: Double(positions[i].x_offset) * unit, yOffset: Double(positions[i].y_offset) * unit,
                cluster: Int(infos[i].cluster))
        }
    }
}

/// Unicode properties text layout needs from the libraries the ecosystem uses for them.
public enum TextProperties {
    /// The script of a scalar as a HarfBuzz script tag (Common and Inherited included).
    public static func script(of scalar: UInt32) -> UInt32 {
        UInt32(hb_unicode_script(hb_unicode_funcs_get_default(), scalar).rawValue)
    }

    /// HarfBuzz's tags for the scripts that take their neighbours' script.
    public static let commonScript = UInt32(HB_SCRIPT_COMMON.rawValue)
    /// Combining marks and joiners: they belong to the scalar before them.
    public static let inheritedScript = UInt32(HB_SCRIPT_INHERITED.rawValue)
    /// No script known.
    public static let unknownScript = UInt32(HB_SCRIPT_UNKNOWN.rawValue)

    /// The embedding level of each scalar of one line by the Unicode bidirectional algorithm
    /// (FriBidi), the paragraph's direction taken from its first strong character (left to
    /// right when there is none): even levels read left to right, odd ones right to left.
    public static func bidiLevels(of scalars: [UInt32]) -> [UInt8] {
        guard !scalars.isEmpty else { return [] }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: scalars.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
        var levels = [FriBidiLevel](repeating: 0, count: scalars.count)
        var direction = FRIBIDI_PAR_ON
        let length = FriBidiStrIndex(scalars.count)
        let ok = scalars.withUnsafeBufferPointer { text in
            fribidi_get_bidi_types(text.baseAddress, length, &types)
            fribidi_get_bracket_types(text.baseAddress, length, types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, length, &direction, &levels)
        }
        guard ok != 0 else { return [UInt8](repeating: 0, count: scalars.count) }
        return levels.map { UInt8(clamping: $0) }
    }
}
