/// Which installed font file draws a font name. The Cards app names Apple fonts; Easel
/// maps each to a free font from a distribution package (`FontFile.packages`), and anything unknown to the default
/// sans. Fonts are loaded from these files by path, never through fontconfig matching, so
/// the same name gives the same glyphs on every machine. docs/fonts.md lists this table.
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
    static let libertine = "/usr/share/fonts/opentype/linux-libertine/"
    static let garamond = "/usr/share/fonts/opentype/ebgaramond/"
    static let dancing = "/usr/share/fonts/opentype/dancingscript/"
    static let noto = "/usr/share/fonts/truetype/noto/"
    static let cjk = FontFile("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")

    /// The default sans: broad coverage of Latin, Greek, Cyrillic and many symbols.
    public static let defaultSans = FontFile(dejaVu + "DejaVuSans.ttf")
    /// The colour emoji font: colour bitmaps, drawn by Easel from their strike on images
    /// (`ColorGlyphStrike`) and by cairo in SVG and PDF.
    public static let colorEmoji = FontFile(noto + "NotoColorEmoji.ttf")
    /// The rounded bold sans standing in for Arial Rounded MT Bold (the error image's "x").
    public static let roundedBold = FontFile("/usr/share/fonts/truetype/quicksand/Quicksand-Bold.ttf")
    /// Liberation Sans, metric-compatible with Arial (the error image's words).
    public static let arial = FontFile(liberation + "LiberationSans-Regular.ttf")

    /// Tried in order for characters the chosen font lacks (emoji first try `colorEmoji`).
    /// The script fonts come before DejaVu Sans, which has Arabic and Hebrew letters too but
    /// not their designers' care; they have no Latin, Greek or Cyrillic to take from it.
    public static let fallbacks: [FontFile] = [
        FontFile(noto + "NotoSansArabic-Regular.ttf"),
        FontFile(noto + "NotoSansHebrew-Regular.ttf"),
        FontFile(noto + "NotoSansThai-Regular.ttf"),
        FontFile(noto + "NotoSansDevanagari-Regular.ttf"),
        defaultSans,
        cjk,  // Chinese, Japanese, Korean
        colorEmoji,
        FontFile("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),  // symbols, monochrome emoji
        FontFile(urw + "StandardSymbolsPS.otf"),
    ]

    /// A family: the names it answers to and a file per style. A PostScript name such as
    /// `Baskerville-Italic` or `GillSans-UltraBold` is the family name and a style; the
    /// style picks the variant (a missing variant falls back to the nearest one).
    public struct Family: Sendable {
        /// Family names, as the Cards app, drawings and other apps spell them.
        public var names: [String]
        /// The upright regular file.
        public var regular: FontFile
        /// Bold (also SemiBold, Demi, Medium-bold names).
        public var bold: FontFile?
        /// Italic or oblique.
        public var italic: FontFile?
        /// Bold italic.
        public var boldItalic: FontFile?
        /// Heavier than bold: UltraBold, ExtraBold, Heavy, Black (else bold).
        public var heavy: FontFile?
        /// Lighter than regular: Light, Thin (else regular).
        public var light: FontFile?
        /// OpenType features always on (Copperplate's small capitals).
        public var features: [String] = []
        /// Why this free font stands in (for the table in docs/fonts.md).
        public var why: String

        /// The file for a style.
        func file(for style: Style) -> FontFile {
            switch style {
            case .regular: return regular
            case .light: return light ?? regular
            case .bold: return bold ?? heavy ?? regular
            case .heavy: return heavy ?? bold ?? regular
            case .italic: return italic ?? regular
            case .boldItalic: return boldItalic ?? bold ?? italic ?? regular
            }
        }

        /// Every file the family names, for checks that they are installed.
        public var files: [FontFile] { [regular, bold, italic, boldItalic, heavy, light].compactMap { $0 } }
    }

    /// The styles a PostScript or display name can ask for.
    enum Style: Equatable { case regular, light, bold, heavy, italic, boldItalic }

    static func family(
        _ names: [String], _ regular: String, bold: String? = nil, italic: String? = nil, boldItalic: String? = nil,
        heavy: String? = nil, light: String? = nil, features: [String] = [], why: String
    ) -> Family {
        Family(
            names: names, regular: FontFile(regular), bold: bold.map { FontFile($0) }, italic: italic.map { FontFile($0) },
            boldItalic: boldItalic.map { FontFile($0) }, heavy: heavy.map { FontFile($0) }, light: light.map { FontFile($0) },
            features: features, why: why)
    }

    /// The families, the Cards app's picker fonts first (`AppFonts.fonts`, both editions).
    public static let families: [Family] = [
        family(
            ["San Fransisco", "San Francisco", "SF Pro", "SF Pro Text", "SF Pro Display", "SF UI", ".SFUI", "System"],
            liberation + "LiberationSans-Regular.ttf", bold: liberation + "LiberationSans-Bold.ttf",
            italic: liberation + "LiberationSans-Italic.ttf", boldItalic: liberation + "LiberationSans-BoldItalic.ttf",
            why: "a neutral grotesque sans, as the system font"),
        family(
            ["AmericanTypewriter", "American Typewriter"], liberation + "LiberationMono-Regular.ttf",
            bold: liberation + "LiberationMono-Bold.ttf", italic: liberation + "LiberationMono-Italic.ttf",
            boldItalic: liberation + "LiberationMono-BoldItalic.ttf", why: "a typewriter face"),
        family(
            ["Avenir", "Futura", "Century Gothic", "Avenir Next"], urw + "URWGothic-Book.otf", bold: urw + "URWGothic-Demi.otf",
            italic: urw + "URWGothic-BookOblique.otf", boldItalic: urw + "URWGothic-DemiOblique.otf",
            why: "a geometric sans (URW Gothic is Avant Garde's clone); Heavy is its Demi"),
        family(
            ["Baskerville"], libertine + "LinLibertine_R.otf", bold: libertine + "LinLibertine_RB.otf",
            italic: libertine + "LinLibertine_RI.otf", boldItalic: libertine + "LinLibertine_RBI.otf",
            why: "a transitional book serif with a true italic, as Baskerville"),
        family(
            ["ChalkboardSE", "Chalkboard SE", "Chalkboard"], comicNeue + "ComicNeue-Regular.otf",
            bold: comicNeue + "ComicNeue-Bold.otf", italic: comicNeue + "ComicNeue-Italic.otf",
            boldItalic: comicNeue + "ComicNeue-BoldItalic.otf", light: comicNeue + "ComicNeue-Light.otf",
            why: "an informal handwritten sans"),
        family(["Chalkduster"], comicNeue + "ComicNeue-Bold.otf", why: "a bold informal hand, as chalk on a board"),
        family(
            ["Cochin"], garamond + "EBGaramond12-Regular.otf", bold: garamond + "EBGaramond12-Bold.otf",
            italic: garamond + "EBGaramond12-Italic.otf", boldItalic: libertine + "LinLibertine_RBI.otf",
            why: "an old-style French serif with a small x-height; EB Garamond has no bold italic, so Libertine's"),
        family(
            ["Copperplate", "Copperplate Gothic"], libertine + "LinLibertine_R.otf", bold: libertine + "LinLibertine_RB.otf",
            light: libertine + "LinLibertine_R.otf", features: ["smcp"],
            why: "Copperplate's lower case is small capitals: Libertine's small capitals (OpenType smcp)"),
        family(
            ["GillSans", "Gill Sans"], openSans + "OpenSans-Regular.ttf", bold: openSans + "OpenSans-Bold.ttf",
            italic: openSans + "OpenSans-Italic.ttf", boldItalic: openSans + "OpenSans-BoldItalic.ttf",
            heavy: openSans + "OpenSans-ExtraBold.ttf", light: openSans + "OpenSans-Light.ttf",
            why: "a humanist sans; UltraBold is its ExtraBold"),
        family(
            ["MarkerFelt", "Marker Felt"], comicNeue + "ComicNeue-Regular.otf", bold: comicNeue + "ComicNeue-Bold.otf",
            why: "a felt-tip hand; Wide is the bold"),
        family(
            ["Noteworthy"], comicNeue + "ComicNeue-Regular.otf", bold: comicNeue + "ComicNeue-Bold.otf",
            light: comicNeue + "ComicNeue-Light.otf", why: "a handwritten note"),
        family(
            ["Verdana"], dejaVu + "DejaVuSans.ttf", bold: dejaVu + "DejaVuSans-Bold.ttf",
            italic: dejaVu + "DejaVuSans-Oblique.ttf",
            boldItalic: dejaVu + "DejaVuSans-BoldOblique.ttf", why: "DejaVu descends from Vera, Verdana's wide humanist cousin"),
        family(
            ["Papyrus", "Zapfino", "Apple Chancery"], urw + "Z003-MediumItalic.otf",
            why: "a calligraphic display face (Zapf Chancery's clone)"),
        family(
            ["PartyLET", "Party LET", "PartyLetPlain"], "/usr/share/fonts/opentype/lobster/lobster.otf",
            why: "a bold, bouncy connected script for parties"),
        family(
            ["SavoyeLET", "Savoye LET", "SavoyeLetPlain"], dancing + "DancingScript-Regular.otf",
            bold: dancing + "DancingScript-Bold.otf", why: "a flowing connected script"),
        family(
            ["SnellRoundhand", "Snell Roundhand"], dancing + "DancingScript-Regular.otf",
            bold: dancing + "DancingScript-Bold.otf",
            why: "a round connected script; Black is its Bold"),
        // Other names documents use.
        family(
            ["Helvetica", "Helvetica Neue", "HelveticaNeue", "Arial", "ArialMT"], liberation + "LiberationSans-Regular.ttf",
            bold: liberation + "LiberationSans-Bold.ttf", italic: liberation + "LiberationSans-Italic.ttf",
            boldItalic: liberation + "LiberationSans-BoldItalic.ttf", why: "metric-compatible with Arial"),
        family(
            ["Arial Rounded MT Bold", "ArialRoundedMTBold", "Arial Rounded"], roundedBold.path,
            why: "a rounded sans (the error image's \"x\")"),
        family(
            ["Times New Roman", "TimesNewRomanPS", "TimesNewRomanPSMT", "Times", "Georgia"],
            liberation + "LiberationSerif-Regular.ttf", bold: liberation + "LiberationSerif-Bold.ttf",
            italic: liberation + "LiberationSerif-Italic.ttf", boldItalic: liberation + "LiberationSerif-BoldItalic.ttf",
            why: "metric-compatible with Times New Roman"),
        family(
            ["Palatino", "Hoefler Text", "Book Antiqua"], urw + "P052-Roman.otf", bold: urw + "P052-Bold.otf",
            italic: urw + "P052-Italic.otf", boldItalic: urw + "P052-BoldItalic.otf", why: "Palatino's clone"),
        family(
            ["Bookman", "Bookman Old Style", "Rockwell"], urw + "URWBookman-Light.otf", bold: urw + "URWBookman-Demi.otf",
            italic: urw + "URWBookman-LightItalic.otf", boldItalic: urw + "URWBookman-DemiItalic.otf", why: "a sturdy serif"),
        family(
            ["Courier", "Courier New", "CourierNewPS", "CourierNewPSMT"], urw + "NimbusMonoPS-Regular.otf",
            bold: urw + "NimbusMonoPS-Bold.otf", italic: urw + "NimbusMonoPS-Italic.otf",
            boldItalic: urw + "NimbusMonoPS-BoldItalic.otf", why: "Courier's clone"),
        family(
            ["Menlo", "Monaco", "SF Mono"], dejaVu + "DejaVuSansMono.ttf", bold: dejaVu + "DejaVuSansMono-Bold.ttf",
            italic: dejaVu + "DejaVuSansMono-Oblique.ttf", boldItalic: dejaVu + "DejaVuSansMono-BoldOblique.ttf",
            why: "a programmer's monospace"),
        family(
            ["AppleSDGothicNeo", "Apple SD Gothic Neo", "PingFang SC", "PingFang TC", "Hiragino Sans"], cjk.path,
            why: "a CJK sans"),
        // Every installed family also answers to its own name.
        family(
            ["DejaVu Sans", "DejaVuSans"], dejaVu + "DejaVuSans.ttf", bold: dejaVu + "DejaVuSans-Bold.ttf",
            italic: dejaVu + "DejaVuSans-Oblique.ttf", boldItalic: dejaVu + "DejaVuSans-BoldOblique.ttf",
            light: dejaVu + "DejaVuSans-ExtraLight.ttf", why: "itself"),
        family(
            ["DejaVu Serif", "DejaVuSerif"], dejaVu + "DejaVuSerif.ttf", bold: dejaVu + "DejaVuSerif-Bold.ttf",
            italic: dejaVu + "DejaVuSerif-Italic.ttf", boldItalic: dejaVu + "DejaVuSerif-BoldItalic.ttf", why: "itself"),
        family(
            ["DejaVu Sans Mono", "DejaVuSansMono"], dejaVu + "DejaVuSansMono.ttf", bold: dejaVu + "DejaVuSansMono-Bold.ttf",
            why: "itself"),
        family(
            ["Liberation Sans", "LiberationSans"], liberation + "LiberationSans-Regular.ttf",
            bold: liberation + "LiberationSans-Bold.ttf", italic: liberation + "LiberationSans-Italic.ttf",
            boldItalic: liberation + "LiberationSans-BoldItalic.ttf", why: "itself"),
        family(
            ["Liberation Serif", "LiberationSerif"], liberation + "LiberationSerif-Regular.ttf",
            bold: liberation + "LiberationSerif-Bold.ttf", italic: liberation + "LiberationSerif-Italic.ttf", why: "itself"),
        family(
            ["Liberation Mono", "LiberationMono"], liberation + "LiberationMono-Regular.ttf",
            bold: liberation + "LiberationMono-Bold.ttf", why: "itself"),
        family(
            ["Open Sans", "OpenSans"], openSans + "OpenSans-Regular.ttf", bold: openSans + "OpenSans-Bold.ttf",
            italic: openSans + "OpenSans-Italic.ttf", heavy: openSans + "OpenSans-ExtraBold.ttf",
            light: openSans + "OpenSans-Light.ttf",
            why: "itself"),
        family(
            ["Comic Neue", "ComicNeue"], comicNeue + "ComicNeue-Regular.otf", bold: comicNeue + "ComicNeue-Bold.otf",
            why: "itself"),
        family(["URW Gothic", "URWGothic"], urw + "URWGothic-Book.otf", bold: urw + "URWGothic-Demi.otf", why: "itself"),
        family(["Nimbus Sans", "NimbusSans"], urw + "NimbusSans-Regular.otf", bold: urw + "NimbusSans-Bold.otf", why: "itself"),
        family(
            ["Nimbus Roman", "NimbusRoman"], urw + "NimbusRoman-Regular.otf", bold: urw + "NimbusRoman-Bold.otf", why: "itself"),
        family(["Z003"], urw + "Z003-MediumItalic.otf", why: "itself"),
        family(
            ["Linux Libertine", "Linux Libertine O", "LinLibertine"], libertine + "LinLibertine_R.otf",
            bold: libertine + "LinLibertine_RB.otf", italic: libertine + "LinLibertine_RI.otf",
            boldItalic: libertine + "LinLibertine_RBI.otf", why: "itself"),
        family(
            ["EB Garamond", "EBGaramond"], garamond + "EBGaramond12-Regular.otf", bold: garamond + "EBGaramond12-Bold.otf",
            italic: garamond + "EBGaramond12-Italic.otf", why: "itself"),
        family(
            ["Dancing Script", "DancingScript"], dancing + "DancingScript-Regular.otf", bold: dancing + "DancingScript-Bold.otf",
            why: "itself"),
        family(["Lobster"], "/usr/share/fonts/opentype/lobster/lobster.otf", why: "itself"),
        family(
            ["Quicksand"], "/usr/share/fonts/truetype/quicksand/Quicksand-Regular.ttf", bold: roundedBold.path,
            light: "/usr/share/fonts/truetype/quicksand/Quicksand-Light.ttf", why: "itself"),
        family(["WenQuanYi Micro Hei"], cjk.path, why: "itself"),
        family(["Noto Color Emoji", "Apple Color Emoji"], colorEmoji.path, why: "colour emoji"),
    ]

    /// What a font name resolves to.
    public struct Choice: Equatable, Sendable {
        /// The file to draw with.
        public var file: FontFile
        /// OpenType features to switch on.
        public var features: [String]
        /// False when the name was not recognised (the file is the default sans).
        public var known: Bool
    }

    private static let table: [String: Family] = {
        var table: [String: Family] = [:]
        for family in families {
            for name in family.names where table[key(name)] == nil { table[key(name)] = family }
        }
        return table
    }()

    static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" && $0 != "." })
    }

    /// The style words a name may end with, longest first, and what each asks for.
    static let styleWords: [(word: String, style: Style)] = [
        ("ultrabolditalic", .heavy), ("extrabolditalic", .heavy), ("semibolditalic", .boldItalic),
        ("boldoblique", .boldItalic), ("bolditalic", .boldItalic), ("blackitalic", .heavy), ("heavyitalic", .heavy),
        ("ultrabold", .heavy), ("extrabold", .heavy), ("black", .heavy), ("heavy", .heavy), ("semibold", .bold),
        ("demibold", .bold), ("demi", .bold), ("bold", .bold), ("wide", .bold), ("lightitalic", .italic),
        ("lightoblique", .italic), ("bookoblique", .italic), ("italic", .italic), ("oblique", .italic), ("ultralight", .light),
        ("extralight", .light), ("light", .light), ("thin", .light), ("regular", .regular), ("roman", .regular),
        ("book", .regular), ("medium", .regular), ("plain", .regular), ("condensed", .regular), ("mt", .regular),
        ("psmt", .regular), ("let", .regular),
    ]

    /// The longest name looked up (as `key` makes it): longer ones are unknown.
    static let maxNameLength = 128

    /// The file (and features) for `name`: a family name, or a family name followed by a
    /// style (`Baskerville-Italic`, `GillSans-UltraBold`, `Gill Sans Bold`, `SavoyeLetPlain`).
    /// An unknown name gives the default sans with `known` false.
    public static func choice(for name: String) -> Choice {
        var remaining = key(name)
        var style = Style.regular
        // No family and its styles are that long; peeling a longer name (a document's 1 MiB
        // of "bold"s) word by word took time growing with its square, past any deadline.
        guard remaining.utf8.count <= maxNameLength else { return Choice(file: defaultSans, features: [], known: false) }
        // Peel style words off the end until a family name is left.
        while !remaining.isEmpty {
            if let family = table[remaining] {
                return Choice(file: family.file(for: style), features: family.features, known: true)
            }
            guard
                let (word, wordStyle) = styleWords.first(where: {
                    remaining.hasSuffix($0.word) && remaining.count > $0.word.count
                })
            else { break }
            remaining.removeLast(word.count)
            style = combine(style, wordStyle)
        }
        return Choice(file: defaultSans, features: [], known: false)
    }

    /// Two style words together: "Bold" then "Italic" is bold italic; "Light" or "Regular"
    /// does not weaken a weight already read.
    static func combine(_ later: Style, _ earlier: Style) -> Style {
        switch (later, earlier) {
        case (.regular, _): return earlier
        case (_, .regular), (_, .light): return later
        case (.italic, .bold), (.bold, .italic): return .boldItalic
        case (.italic, .heavy), (.heavy, .italic): return .heavy
        default: return later
        }
    }

    /// The file for `name`, and whether the name was known (false: the default sans).
    public static func file(for name: String) -> (file: FontFile, known: Bool) {
        let choice = choice(for: name)
        return (choice.file, choice.known)
    }
}
