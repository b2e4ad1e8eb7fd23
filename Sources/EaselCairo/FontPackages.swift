extension FontMap.FontFile {
    /// The distribution packages that install this font file, for messages and `easel doctor`:
    /// Debian and Ubuntu's, and Fedora's (nil where Fedora has no package of that font).
    public var packages: FontMap.Packages {
        if fileName == "NotoColorEmoji.ttf" {
            return .init(debian: "fonts-noto-color-emoji", fedora: "google-noto-color-emoji-fonts")
        }
        if path.hasPrefix(FontMap.dejaVu) {
            // Debian splits DejaVu: regular and bold in -core, obliques, italics and light in -extra.
            let extra = ["Oblique", "Italic", "ExtraLight"].contains { fileName.contains($0) }
            let fedora =
                fileName.hasPrefix("DejaVuSansMono")
                ? "dejavu-sans-mono-fonts"
                : fileName.hasPrefix("DejaVuSerif") ? "dejavu-serif-fonts" : "dejavu-sans-fonts"
            return .init(debian: extra ? "fonts-dejavu-extra" : "fonts-dejavu-core", fedora: fedora)
        }
        for (folder, packages) in FontMap.packagesByFolder where path.hasPrefix(folder) { return packages }
        return .init(debian: "(not a Debian font: \(path))", fedora: nil)
    }
}

extension FontMap {
    /// Where a font file comes from on the systems Easel documents.
    public struct Packages: Hashable, Sendable {
        /// The Debian and Ubuntu package (`apt-get install` it).
        public var debian: String
        /// Fedora's package (`dnf install` it), when Fedora packages that font.
        public var fedora: String?
    }

    /// Each font folder the map uses, with the packages that fill it (Debian 12 and Ubuntu
    /// 22.04+ install these fonts at these paths; Fedora installs elsewhere, so there a
    /// package alone is not enough: see docs/install.md).
    static let packagesByFolder: [(String, Packages)] = [
        (liberation, .init(debian: "fonts-liberation2", fedora: "liberation-fonts")),
        (urw, .init(debian: "fonts-urw-base35", fedora: "urw-base35-fonts")),
        (comicNeue, .init(debian: "fonts-comic-neue", fedora: nil)),
        (openSans, .init(debian: "fonts-open-sans", fedora: "open-sans-fonts")),
        (libertine, .init(debian: "fonts-linuxlibertine", fedora: "linux-libertine-fonts")),
        (garamond, .init(debian: "fonts-ebgaramond", fedora: "google-ebgaramond-fonts")),
        (dancing, .init(debian: "fonts-dancingscript", fedora: nil)),
        (noto, .init(debian: "fonts-noto-core", fedora: "google-noto-sans-fonts")),
        ("/usr/share/fonts/truetype/wqy/", .init(debian: "fonts-wqy-microhei", fedora: "wqy-microhei-fonts")),
        ("/usr/share/fonts/truetype/quicksand/", .init(debian: "fonts-quicksand", fedora: nil)),
        ("/usr/share/fonts/opentype/lobster/", .init(debian: "fonts-lobster", fedora: nil)),
        ("/usr/share/fonts/truetype/ancient-scripts/", .init(debian: "fonts-symbola", fedora: nil)),
    ]

    /// Every font file the map can load: each family's files, the fallbacks, the default
    /// sans and the error image's rounded bold, once each in that order.
    public static var allFiles: [FontFile] {
        var seen = Set<FontFile>()
        return (families.flatMap(\.files) + fallbacks + [defaultSans, colorEmoji, roundedBold]).filter {
            seen.insert($0).inserted
        }
    }
}
