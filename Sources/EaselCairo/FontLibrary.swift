import FoundationEssentials
import EaselSupport
import CEaselCairo
import CEaselFreeType

/// A loaded font: a cairo font face made from a FreeType face, plus a measuring scaled font
/// at 1 unit per em. Faces are shared by every render in the process; after loading, all
/// use goes through cairo, which locks the FreeType face itself, so sharing is safe.
public final class FontFace: @unchecked Sendable, CustomStringConvertible {
    /// The font file (and face index) the face was loaded from.
    public let file: FontMap.FontFile
    let face: OpaquePointer  // cairo_font_face_t, kept for the life of the process
    let measuring: OpaquePointer  // cairo_scaled_font_t at size 1, unhinted
    /// The same file read by HarfBuzz, for shaping (nil if HarfBuzz cannot read it).
    let shaping: HarfBuzzFont?
    /// For a colour bitmap font (colour emoji), its strike, whose glyphs Easel draws itself
    /// on images; nil for every other font.
    let colorStrike: ColorGlyphStrike?
    /// Ascent and descent (both positive) at size 1, from the font's own metrics.
    public let ascent: Double
    /// How far the font reaches below the baseline at size 1, as a positive number.
    public let descent: Double

    init(file: FontMap.FontFile, face: OpaquePointer, measuring: OpaquePointer, colorBitmaps: Bool) {
        self.file = file
        self.face = face
        self.measuring = measuring
        shaping = HarfBuzzFont(path: file.path, faceIndex: file.faceIndex)
        colorStrike = colorBitmaps ? ColorGlyphStrike(path: file.path, faceIndex: file.faceIndex) : nil
        var extents = cairo_font_extents_t()
        cairo_scaled_font_extents(measuring, &extents)
        ascent = extents.ascent
        descent = extents.descent
    }

    deinit {
        cairo_scaled_font_destroy(measuring)
        cairo_font_face_destroy(face)
    }

    /// The glyph for a Unicode scalar, or nil when the font has none.
    public func glyph(for scalar: Unicode.Scalar) -> UInt {
        var utf8 = Array(String(Character(scalar)).utf8)
        utf8.append(0)
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>? = nil
        var count: Int32 = 0
        let status = utf8.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
                cairo_scaled_font_text_to_glyphs(measuring, 0, 0, text, Int32(buffer.count - 1), &glyphs, &count, nil, nil, nil)
            }
        }
        defer { cairo_glyph_free(glyphs) }
        guard status == CAIRO_STATUS_SUCCESS, count >= 1, let glyphs else { return 0 }
        return glyphs[0].index
    }

    /// The font file's name, with `#index` for a face other than the first in a collection.
    public var description: String { file.description }
}

/// Why a font could not be used.
public enum FontError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingFile(String)
    case unreadable(String, code: Int32)
    case cairo(String)

    /// A one-line message for the user naming the font file and what went wrong.
    public var description: String {
        switch self {
        case .missingFile(let path):
            let package = FontMap.FontFile(path).packages.debian
            return
                "the font file \(path) is not installed (on Debian or Ubuntu: apt-get install \(package); `easel doctor` lists every missing font)"
        case .unreadable(let path, let code): return "FreeType cannot read the font file \(path) (error \(code))"
        case .cairo(let message): return "cairo cannot use a font: \(message)"
        }
    }
}

/// The process's fonts: each file is loaded once, on first use. Different files load on
/// several threads at once (a text-heavy card's twenty fonts are most of its layout), each
/// in a FreeType library of its own; a thread that wants a file another is loading waits
/// for that loading.
public final class FontLibrary: Sendable {
    /// The process-wide library every render uses, so that each font file is loaded once.
    public static let shared = FontLibrary()

    private struct State {
        var faces: [FontMap.FontFile: Result<FontFace, FontError>] = [:]
        /// Files some thread is loading now.
        var loading: Set<FontMap.FontFile> = []
    }

    private let state = Locked(State())
    /// Broadcast whenever a loading ends, for the threads waiting for one.
    private let loadingEnded = Condition()

    /// Deterministic font rendering: no hinting, unrounded metrics, grey antialiasing.
    static func makeFontOptions() -> OpaquePointer {
        let options = cairo_font_options_create()!
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
        return options
    }

    /// The face for `file`, loading it on first use.
    public func face(for file: FontMap.FontFile) throws(FontError) -> FontFace {
        enum Step {
            case loaded(Result<FontFace, FontError>)
            case wait, load
        }
        while true {
            let step = state.withLock { state -> Step in
                if let cached = state.faces[file] { return .loaded(cached) }
                if state.loading.contains(file) { return .wait }
                state.loading.insert(file)
                return .load
            }
            switch step {
            case .loaded(let result): return try result.get()
            case .wait:
                loadingEnded.withLock {
                    while state.withLock({ $0.loading.contains(file) }) { loadingEnded.wait() }
                }
            case .load:
                let result = Self.load(file)
                state.withLock { state in
                    state.faces[file] = result
                    state.loading.remove(file)
                }
                loadingEnded.withLock { loadingEnded.broadcast() }
                return try result.get()
            }
        }
    }

    /// The face for a font name through `FontMap`, falling back to the default sans when the
    /// mapped file is missing. `substituted` is true when the name was unknown or its file
    /// was missing.
    public func face(named name: String) throws(FontError) -> (face: FontFace, substituted: Bool) {
        let resolved = try resolve(named: name)
        return (resolved.face, resolved.substituted)
    }

    /// The face and OpenType features for a font name through `FontMap`, falling back to the
    /// default sans (without features) when the name is unknown or its file missing.
    public func resolve(named name: String) throws(FontError) -> (face: FontFace, features: [String], substituted: Bool) {
        let choice = FontMap.choice(for: name)
        if let face = try? face(for: choice.file) { return (face, choice.features, !choice.known) }
        return (try face(for: FontMap.defaultSans), [], true)
    }

    /// The fallback faces in order, each loaded only when a layout first needs it (most text
    /// is in its own font: a process that never needs Thai never opens the Thai font).
    public var lazyFallbacks: LazyFallbacks { LazyFallbacks(library: self, files: FontMap.fallbacks) }

    /// The fallback faces that are installed, in order.
    public var fallbackFaces: [FontFace] {
        FontMap.fallbacks.compactMap { try? face(for: $0) }
    }

    /// Loads `file` in a FreeType library of its own (one library's faces must not be opened
    /// on two threads at once; a library costs a few microseconds).
    private static func load(_ file: FontMap.FontFile) -> Result<FontFace, FontError> {
        guard FileManager.default.fileExists(atPath: file.path) else { return .failure(.missingFile(file.path)) }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return .failure(.unreadable(file.path, code: -1)) }
        var ftFace: FT_Face?
        let error = FT_New_Face(library, file.path, file.faceIndex, &ftFace)
        guard error == 0, let ftFace else {
            FT_Done_FreeType(library)
            return .failure(.unreadable(file.path, code: error))
        }
        let face = cairo_ft_font_face_create_for_ft_face(ftFace, 0)!
        // cairo uses the FreeType face until its own face is destroyed: tie their lives (the
        // face's, then its library's).
        let key = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)
        let status = cairo_font_face_set_user_data(face, key, UnsafeMutableRawPointer(ftFace)) { pointer in
            guard let ftFace = pointer?.assumingMemoryBound(to: FT_FaceRec_.self) else { return }
            let library = ftFace.pointee.glyph?.pointee.library
            FT_Done_Face(ftFace)
            if let library { FT_Done_FreeType(library) }
        }
        guard status == CAIRO_STATUS_SUCCESS, cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(face)
            FT_Done_Face(ftFace)
            FT_Done_FreeType(library)
            return .failure(.cairo("cannot create a font face for \(file.path)"))
        }
        var identity = cairo_matrix_t()
        cairo_matrix_init_identity(&identity)
        let options = makeFontOptions()
        defer { cairo_font_options_destroy(options) }
        let measuring = cairo_scaled_font_create(face, &identity, &identity, options)!
        guard cairo_scaled_font_status(measuring) == CAIRO_STATUS_SUCCESS else {
            cairo_scaled_font_destroy(measuring)
            cairo_font_face_destroy(face)
            return .failure(.cairo("cannot scale the font \(file.path)"))
        }
        return .success(
            FontFace(
                file: file, face: face, measuring: measuring, colorBitmaps: ColorGlyphStrike.isColorBitmapFont(ftFace)))
    }
}

/// Fallback fonts loaded one at a time, as a layout reaches them; a font that is not
/// installed is skipped.
public final class LazyFallbacks {
    private let library: FontLibrary
    private let files: [FontMap.FontFile]
    private var loaded: [Int: FontFace?] = [:]

    init(library: FontLibrary, files: [FontMap.FontFile]) {
        self.library = library
        self.files = files
    }

    /// Fallbacks already loaded elsewhere, in order.
    public init(_ faces: [FontFace]) {
        library = .shared
        files = faces.map(\.file)
        for (index, face) in faces.enumerated() { loaded[index] = face }
    }

    /// How many fallbacks there are (installed or not).
    public var count: Int { files.count }

    /// The fallback at `index`, loaded on first use; nil when its file is not installed.
    public func face(at index: Int) -> FontFace? {
        if let cached = loaded[index] { return cached }
        let face = try? library.face(for: files[index])
        loaded[index] = face
        return face
    }

    /// The first fallback (other than `excluding`) for which `accepts` is true, loading
    /// fallbacks only up to it.
    public func first(excluding: FontFace?, where accepts: (FontFace) -> Bool) -> FontFace? {
        for index in 0..<count {
            guard let face = face(at: index), face !== excluding else { continue }
            if accepts(face) { return face }
        }
        return nil
    }
}
