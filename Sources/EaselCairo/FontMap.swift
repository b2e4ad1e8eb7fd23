/// Which installed font file draws a font name. The Cards app names Apple fonts; Easel
/// maps each to a free font that `make deps` installs, and anything unknown to the default
/// sans. Fonts are loaded from these files by path, never through fontconfig matching, so
/// the same name gives the same glyphs on every machine. The README lists this table.
public enum FontMap {
    /// A font file (and face index, for collections).
    public struct FontFile: Hashable, Sendable, CustomStringConvertible {
        /// The absolute path of the font file.
        public var path: String
        /// Which face of a collection (`.ttc`) to use; 0 for the first or only one.
        public var faceIndex: Int

        /// The font at absolute `path`; `faceIndex` picks a face of a collection (0: the first).
        public init(_ path: String, faceIndex: Int = 0) {
            self.path = path
            self.faceIndex = faceIndex
        }

        /// The last component of `path`, for messages.
        public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }
        /// The file name, followed by `#index` for a face other than the first.
        public var description: String { faceIndex == 0 ? fileName : "\(fileName)#\(faceIndex)" }
    }

    static let dejaVu = "/usr/share/fonts/truetype/dejavu/"
    static let liberation = "/usr/share/fonts/truetype/liberation2/"
    static let urw = "/usr/share/fonts/opentype/urw-base35/"
    static let comicNeue = "/usr/share/fonts/opentype/comic-neue/"
    static let openSans = "/usr/share/fonts/truetype/open-sans/"

    /// The default sans: broad coverage of Latin, Greek, Cyrillic and many symbols.
    public static let defaultSans = FontFile(dejaVu + "DejaVuSans.ttf")

    /// Tried in order for characters the chosen font lacks.
    public static let fallbacks: [FontFile] = [
        defaultSans,
        FontFile("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),  // Chinese, Japanese, Korean
        FontFile("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),  // symbols, emoji (monochrome)
        FontFile(urw + "StandardSymbolsPS.otf"),
    ]

    /// Font names (as the Cards app and drawings spell them) and the file drawing each.
    /// Keys are compared after lower-casing and removing spaces, hyphens and underscores.
    public static let entries: [(names: [String], file: FontFile, why: String)] = [
        (
            ["San Fransisco", "San Francisco", "SF Pro", ".SFUI-Regular", "System"],
            FontFile(liberation + "LiberationSans-Regular.ttf"), "a neutral grotesque sans"
        ),
        (["Gill Sans", "GillSans"], FontFile(openSans + "OpenSans-Regular.ttf"), "a humanist sans"),
        (["GillSans-Bold", "Gill Sans Bold"], FontFile(openSans + "OpenSans-Bold.ttf"), "a humanist sans, bold"),
        (
            ["ChalkboardSE-Regular", "Chalkboard SE", "Chalkboard"], FontFile(comicNeue + "ComicNeue-Regular.otf"),
            "an informal handwritten sans"
        ),
        (
            ["ChalkboardSE-Bold", "Chalkduster", "Noteworthy-Bold", "Marker Felt", "MarkerFelt-Wide"],
            FontFile(comicNeue + "ComicNeue-Bold.otf"), "a bold informal hand"
        ),
        (
            ["Avenir-Heavy", "Avenir Heavy", "Futura-Bold", "Futura Bold"], FontFile(urw + "URWGothic-Demi.otf"),
            "a geometric sans, heavy"
        ),
        (
            ["Avenir", "Avenir-Book", "Avenir-Roman", "Futura", "Futura-Medium", "Century Gothic"],
            FontFile(urw + "URWGothic-Book.otf"), "a geometric sans"
        ),
        (
            ["Verdana-Bold", "Verdana Bold"], FontFile(dejaVu + "DejaVuSans-Bold.ttf"),
            "DejaVu descends from Vera, Verdana's wide humanist cousin"
        ),
        (["Verdana"], FontFile(dejaVu + "DejaVuSans.ttf"), "Verdana's wide humanist cousin"),
        (
            ["Papyrus", "Zapfino", "Snell Roundhand", "SnellRoundhand", "Apple Chancery"],
            FontFile(urw + "Z003-MediumItalic.otf"), "a calligraphic display face"
        ),
        (
            ["AmericanTypewriter", "American Typewriter", "Courier", "Courier New", "CourierNewPSMT"],
            FontFile(liberation + "LiberationMono-Regular.ttf"), "a typewriter face"
        ),
        (["Menlo", "Monaco", "SF Mono"], FontFile(dejaVu + "DejaVuSansMono.ttf"), "a programmer's monospace"),
        (
            ["Helvetica", "Helvetica Neue", "HelveticaNeue", "Arial", "ArialMT"],
            FontFile(liberation + "LiberationSans-Regular.ttf"), "metric-compatible with Arial"
        ),
        (
            ["Helvetica-Bold", "HelveticaNeue-Bold", "Arial-BoldMT", "Arial Bold"],
            FontFile(liberation + "LiberationSans-Bold.ttf"), "metric-compatible with Arial Bold"
        ),
        (
            ["Times New Roman", "TimesNewRomanPSMT", "Times", "Times-Roman", "Georgia"],
            FontFile(liberation + "LiberationSerif-Regular.ttf"), "metric-compatible with Times New Roman"
        ),
        (
            ["Palatino", "Palatino-Roman", "Baskerville", "Hoefler Text"], FontFile(urw + "P052-Roman.otf"),
            "an old-style book serif"
        ),
        (["Bookman", "Bookman Old Style", "Rockwell"], FontFile(urw + "URWBookman-Light.otf"), "a sturdy serif"),
        (
            ["AppleSDGothicNeo-Bold", "Apple SD Gothic Neo", "PingFang SC", "Hiragino Sans"],
            FontFile("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"), "a CJK sans"
        ),
        // Every installed family also answers to its own name.
        (["DejaVu Sans"], FontFile(dejaVu + "DejaVuSans.ttf"), "itself"),
        (["DejaVu Sans Bold", "DejaVuSans-Bold"], FontFile(dejaVu + "DejaVuSans-Bold.ttf"), "itself"),
        (["DejaVu Serif"], FontFile(dejaVu + "DejaVuSerif.ttf"), "itself"),
        (["DejaVu Sans Mono"], FontFile(dejaVu + "DejaVuSansMono.ttf"), "itself"),
        (["Liberation Sans"], FontFile(liberation + "LiberationSans-Regular.ttf"), "itself"),
        (["Liberation Serif"], FontFile(liberation + "LiberationSerif-Regular.ttf"), "itself"),
        (["Liberation Mono"], FontFile(liberation + "LiberationMono-Regular.ttf"), "itself"),
        (["Open Sans"], FontFile(openSans + "OpenSans-Regular.ttf"), "itself"),
        (["Comic Neue"], FontFile(comicNeue + "ComicNeue-Regular.otf"), "itself"),
        (["URW Gothic"], FontFile(urw + "URWGothic-Book.otf"), "itself"),
        (["Nimbus Sans"], FontFile(urw + "NimbusSans-Regular.otf"), "itself"),
        (["Nimbus Roman"], FontFile(urw + "NimbusRoman-Regular.otf"), "itself"),
        (["Z003"], FontFile(urw + "Z003-MediumItalic.otf"), "itself"),
        (["WenQuanYi Micro Hei"], FontFile("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"), "itself"),
    ]

    private static let table: [String: FontFile] = {
        var table: [String: FontFile] = [:]
        for entry in entries {
            for name in entry.names where table[key(name)] == nil { table[key(name)] = entry.file }
        }
        return table
    }()

    static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" })
    }

    /// The file for `name`, and whether the name was known (false: the default sans).
    public static func file(for name: String) -> (file: FontFile, known: Bool) {
        if let file = table[key(name)] { return (file, true) }
        return (defaultSans, false)
    }
}
