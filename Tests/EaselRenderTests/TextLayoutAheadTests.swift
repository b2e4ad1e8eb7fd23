@testable import EaselCairo
import EaselDocuments
import EaselSupport
import EaselTestSupport
import Foundation
import Testing

@testable import EaselRender

/// A text-heavy document's fonts load on several threads at once, and its texts are laid out
/// ahead of the lowering by whichever threads help: each font is still loaded once, each
/// text laid out to the same glyphs, and the scene is the one a lowering alone makes.
@Suite("Texts laid out ahead, fonts loaded on several threads")
struct TextLayoutAheadTests {
    /// The picker's names and the texts of the benchmark's text card, emoji and RTL included.
    static let texts: [(text: String, fontName: String)] = [
        ("Happy birthday!", "San Fransisco"), ("Wish you were here 🌊", "Gill Sans"),
        ("Congratulations 🎉🎂", "AmericanTypewriter"), ("مرحبا بالعالم", "Avenir-Heavy"),
        ("שלום עולם", "Avenir-Book"), ("Bon voyage ✈️", "Baskerville-Italic"), ("With love ❤️", "ChalkboardSE-Regular"),
        ("Merry Christmas 🎄", "Chalkduster"), ("Thank you so much", "Cochin-BoldItalic"),
        ("See you soon 👋", "Copperplate"), ("عيد ميلاد سعيد", "GillSans-UltraBold"), ("מזל טוב 🎈", "MarkerFelt-Wide"),
        ("Greetings from Paris", "Noteworthy-Bold"), ("Get well soon 🌻", "Verdana-Bold"),
        ("Happy new year 2027", "Papyrus"), ("Best wishes", "PartyLetPlain"), ("You did it! 🏆", "SavoyeLetPlain"),
        ("Home sweet home 🏡", "SnellRoundhand-Black"),
    ]

    @Test func eachFontIsLoadedOnceWhateverTheThreadsAskingForIt() throws {
        let library = FontLibrary()
        let files = Self.texts.map { FontMap.choice(for: $0.fontName).file } + [FontMap.colorEmoji]
        let faces = Locked<[FontMap.FontFile: [ObjectIdentifier]]>([:])
        let threads = (0..<6).compactMap { thread in
            StartedThread.start {
                // Each thread in its own order, so that several want the same file at once.
                for index in files.indices.shuffled() {
                    guard let face = try? library.face(for: files[index]) else { continue }
                    faces.withLock { $0[files[index], default: []].append(ObjectIdentifier(face)) }
                }
            }
        }
        for thread in threads { thread.join() }
        #expect(threads.count == 6)
        for (file, seen) in faces.withLock({ $0 }) {
            let asked = 6 * files.filter { $0 == file }.count
            #expect(seen.count == asked && Set(seen).count == 1, "\(file): \(Set(seen).count) faces")
        }
        #expect(faces.withLock { $0.count } == Set(files).count, "every installed file loaded")
    }

    @Test func helpersLayTheTextsOutAsTheLoweringWould() throws {
        let ahead = TextLayoutAhead()
        ahead.layOut()  // before `begin`: nothing to do, and no wait
        ahead.begin(Self.texts, fonts: .shared, deadline: nil)
        let threads = (0..<3).compactMap { _ in StartedThread.start { ahead.layOut() } }
        ahead.layOut()
        for thread in threads { thread.join() }
        for (text, fontName) in Self.texts {
            let line = try #require(ahead.line(for: text, fontName: fontName), "\(text)")
            let (face, features, _) = try FontLibrary.shared.resolve(named: fontName)
            let alone = TextLine.layout(
                text, primary: face, features: features, fallbacks: FontLibrary.shared.lazyFallbacks,
                emoji: { try? FontLibrary.shared.face(for: FontMap.colorEmoji) })
            #expect(line.runs.map(\.font) == alone.runs.map(\.font), "\(text)")
            #expect(line.runs.flatMap { $0.glyphs.map(\.index) } == alone.runs.flatMap { $0.glyphs.map(\.index) }, "\(text)")
            #expect(line.width == alone.width, "\(text)")
        }
    }

    @Test func aCardLoweredWithTextsAheadIsTheSameScene() throws {
        let folder = TemporaryFolder()
        let card = Card(
            textElements: Self.texts.map { TextElement(text: $0.text, textFont: $0.fontName) })
        let located = try DocumentRegistry.standard.open(try folder.write(CardEncoder.encode(card, file: "c"), to: "c.rwcard"))
        let alone = CardLowering.scene(for: card, folder: folder.url, images: ImageLoader(), file: located.displayName)
        let ahead = TextLayoutAhead()
        ahead.begin(card.textsToLayOut, fonts: .shared, deadline: nil)
        ahead.layOut()
        let fromAhead = CardLowering.scene(
            for: card, folder: folder.url, images: ImageLoader(), file: located.displayName, textsAhead: ahead)
        let viaRenderer = try DocumentRenderer.scene(for: located, textsAhead: TextLayoutAhead())
        for scene in [fromAhead, viaRenderer] {
            #expect("\(scene.operations)" == "\(alone.operations)")
            #expect(scene.warnings == alone.warnings)
        }
    }
}
