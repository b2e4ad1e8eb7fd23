import EaselDocuments
import EaselGeometry
import EaselRender
import FoundationEssentials

/// One of Easel's stickers: a Noto Color Emoji glyph drawn by Easel's own renderer.
public struct Sticker: Codable, Hashable, Sendable {
    /// The sticker's name in edits and URLs, `theme/name` ("camping/fire").
    public var id: String
    /// What it shows, in words ("fire").
    public var name: String
    /// The emoji it is drawn from.
    public var emoji: String

    /// A sticker `id` (`theme/name`) showing `emoji`.
    public init(id: String, name: String, emoji: String) {
        self.id = id
        self.name = name
        self.emoji = emoji
    }
}

/// A theme of stickers, as the app keeps them in folders ("Camping").
public struct StickerTheme: Codable, Hashable, Sendable {
    /// The theme's name as the picker shows it.
    public var name: String
    /// Its stickers, in the picker's order.
    public var stickers: [Sticker]
}

/// Easel's stickers. The Cards app's stickers are the book's art and not Easel's to ship, so
/// Easel makes a free set of its own: emoji from Noto Color Emoji (SIL Open Font License,
/// installed by `make deps`), each drawn by Easel's renderer into a square PNG. A sticker
/// added to a card becomes what the app makes of one: an image element whose file is that
/// PNG under a new UUID with no extension (`easel add CARD sticker camping/fire`, the edit
/// API's `"kind": "sticker"`).
public enum StickerCatalog {
    /// The themes, in the picker's order.
    public static let themes: [StickerTheme] = [
        theme("Camping", [("fire", "🔥"), ("guitar", "🎸"), ("tent", "⛺"), ("tree", "🌲"), ("moon", "🌙"), ("compass", "🧭")]),
        theme("Party", [("balloon", "🎈"), ("cake", "🎂"), ("gift", "🎁"), ("confetti", "🎉"), ("star", "🌟"), ("champagne", "🍾")]),
        theme("Love", [("heart", "❤️"), ("hearts", "💕"), ("rose", "🌹"), ("letter", "💌"), ("kiss", "💋"), ("ring", "💍")]),
        theme("Nature", [("sun", "☀️"), ("rainbow", "🌈"), ("flower", "🌸"), ("sunflower", "🌻"), ("clover", "🍀"), ("leaf", "🍁")]),
        theme("Animals", [("cat", "🐱"), ("dog", "🐶"), ("fox", "🦊"), ("panda", "🐼"), ("penguin", "🐧"), ("butterfly", "🦋")]),
        theme(
            "Food",
            [("pizza", "🍕"), ("doughnut", "🍩"), ("strawberry", "🍓"), ("watermelon", "🍉"), ("coffee", "☕"), ("ice-cream", "🍦")]),
    ]

    /// The side of a sticker's PNG in pixels, as it is stored in a document.
    public static let storedSize = 512
    /// The sides a sticker may be drawn at (a picker's preview, a stored sticker).
    public static let sizes = 16...1024

    private static func theme(_ name: String, _ stickers: [(String, String)]) -> StickerTheme {
        let folder = name.lowercased()
        return StickerTheme(
            name: name, stickers: stickers.map { Sticker(id: "\(folder)/\($0.0)", name: $0.0, emoji: $0.1) })
    }

    /// The sticker `id` names ("camping/fire"); nil for none.
    public static func sticker(named id: String) -> Sticker? {
        themes.lazy.flatMap(\.stickers).first { $0.id == id.lowercased() }
    }

    /// The sticker as a PNG `size` pixels square, its emoji filling most of it on a clear ground.
    public static func png(_ sticker: Sticker, size: Int = storedSize) throws -> [UInt8] {
        guard sizes.contains(size) else {
            throw EditError("a sticker is drawn from \(sizes.lowerBound) to \(sizes.upperBound) pixels square, not \(size)")
        }
        let side = Double(size)
        let glyph = Graphic(
            kind: .text(TextContent(string: sticker.emoji, fontFamily: "Noto Color Emoji", fontSize: side * 0.8)),
            transform: GraphicTransform(center: Point(x: side / 2, y: side / 2), size: Size(width: side, height: side)),
            fill: .black)
        let drawing = Drawing(canvasSize: Size(width: side, height: side), background: nil, graphics: [glyph])
        // A place that exists nowhere: a sticker reads no file but its font.
        let located = LocatedDocument(drawing, at: URL(fileURLWithPath: "/easel-sticker/\(sticker.name).drawing"))
        return try DocumentRenderer.export(located, options: RenderOptions(format: .png, size: .scale(1))).bytes
    }
}
