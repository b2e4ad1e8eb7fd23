import Testing
import Foundation
import EaselGeometry
import EaselDocuments
@testable import EaselRender
import EaselCairo
import EaselTestSupport

@Suite("Font map")
struct FontMapTests {
    /// The Cards app's font picker (`AppFonts.fonts`, both editions).
    static let pickerFonts = [
        "San Fransisco", "AmericanTypewriter", "Avenir-Heavy", "Avenir-Book", "Baskerville-Italic", "ChalkboardSE-Regular",
        "Chalkduster", "Cochin-BoldItalic", "Copperplate", "GillSans-UltraBold", "MarkerFelt-Wide", "Noteworthy-Bold",
        "Verdana-Bold", "Papyrus", "PartyLetPlain", "SavoyeLetPlain", "SnellRoundhand-Black",
    ]

    @Test func everyMappedFontFileIsInstalledAndLoads() throws {
        for family in FontMap.families {
            for file in family.files {
                #expect(FileManager.default.fileExists(atPath: file.path), "\(file.path) (make deps installs it)")
                _ = try FontLibrary.shared.face(for: file)
            }
        }
        #expect(FontLibrary.shared.fallbackFaces.count == FontMap.fallbacks.count)
    }

    @Test func everyPickerFontAndItsStyleIsMapped() {
        let expected = [
            "San Fransisco": "LiberationSans-Regular.ttf", "AmericanTypewriter": "LiberationMono-Regular.ttf",
            "Avenir-Heavy": "URWGothic-Demi.otf", "Avenir-Book": "URWGothic-Book.otf",
            "Baskerville-Italic": "LinLibertine_RI.otf", "ChalkboardSE-Regular": "ComicNeue-Regular.otf",
            "Chalkduster": "ComicNeue-Bold.otf", "Cochin-BoldItalic": "LinLibertine_RBI.otf",
            "Copperplate": "LinLibertine_R.otf", "GillSans-UltraBold": "OpenSans-ExtraBold.ttf",
            "MarkerFelt-Wide": "ComicNeue-Bold.otf", "Noteworthy-Bold": "ComicNeue-Bold.otf",
            "Verdana-Bold": "DejaVuSans-Bold.ttf", "Papyrus": "Z003-MediumItalic.otf", "PartyLetPlain": "lobster.otf",
            "SavoyeLetPlain": "DancingScript-Regular.otf", "SnellRoundhand-Black": "DancingScript-Bold.otf",
        ]
        for name in Self.pickerFonts {
            let choice = FontMap.choice(for: name)
            #expect(choice.known && choice.file.fileName == expected[name], "\(name) -> \(choice.file.fileName)")
        }
        #expect(FontMap.choice(for: "Copperplate").features == ["smcp"], "Copperplate's lower case is small capitals")
    }

    @Test func postScriptAndDisplayStyleNamesPickTheVariant() {
        let cases = [
            "Gill Sans Bold": "OpenSans-Bold.ttf", "GillSans-Italic": "OpenSans-Italic.ttf",
            "GillSans-BoldItalic": "OpenSans-BoldItalic.ttf", "GillSans-Light": "OpenSans-Light.ttf",
            "GillSans-SemiBold": "OpenSans-Bold.ttf", "Baskerville-Bold": "LinLibertine_RB.otf",
            "Cochin-Italic": "EBGaramond12-Italic.otf", "Avenir-BookOblique": "URWGothic-BookOblique.otf",
            "Arial-BoldMT": "LiberationSans-Bold.ttf", "ArialMT": "LiberationSans-Regular.ttf",
            "Helvetica-LightOblique": "LiberationSans-Italic.ttf", "MarkerFelt-Thin": "ComicNeue-Regular.otf",
            "Verdana-BoldItalic": "DejaVuSans-BoldOblique.ttf", "Papyrus-Condensed": "Z003-MediumItalic.otf",
            "chalkboardse-regular": "ComicNeue-Regular.otf", "Gill  Sans": "OpenSans-Regular.ttf",
            "Arial Rounded MT Bold": "Quicksand-Bold.ttf",
        ]
        for (name, file) in cases {
            let choice = FontMap.choice(for: name)
            #expect(choice.known && choice.file.fileName == file, "\(name) -> \(choice.file.fileName), wanted \(file)")
        }
        let unknown = FontMap.choice(for: "Wingdings")
        #expect(!unknown.known && unknown.file == FontMap.defaultSans)
        #expect(!FontMap.choice(for: "Bold").known, "a style alone is not a family")
        // A name past any family and its styles is unknown as it is, not peeled a word at a
        // time (a document's megabyte of "Bold"s held a render worker for minutes).
        let long = FontMap.choice(for: "Gill Sans" + String(repeating: " Bold", count: 5_000))
        #expect(!long.known && long.file == FontMap.defaultSans)
    }

    @Test func aCardInEveryPickerFontHasNoFallbackWarning() throws {
        let elements = Self.pickerFonts.enumerated().map { index, font in
            TextElement(
                transform: ElementTransform(
                    size: Size(width: 1200, height: 100), offset: Point(x: 0, y: Double(index) * 110 - 900)),
                text: "\(font) Quick brown fox", textFont: font)
        }
        let card = Card(backgroundColor: .white, textElements: elements)
        let folder = TemporaryFolder()
        let url = try folder.write(try CardEncoder.encode(card, file: "c"), to: "c.rwcard")
        let rendered = try DocumentRenderer.render(LocatedDocument(card, at: url))
        #expect(rendered.warnings.isEmpty, "\(rendered.warnings)")
    }

    @Test func theFontsPageListsEveryFamily() throws {
        let readme = try String(contentsOf: ProcessRunner.packageRoot.appendingPathComponent("docs/fonts.md"), encoding: .utf8)
        let missing = FontMap.families.filter { $0.why != "itself" }.map(Self.readmeRow).filter { !readme.contains($0) }
        #expect(missing.isEmpty, "docs/fonts.md's font table lacks:\n\(missing.joined(separator: "\n"))")
    }

    /// The font table's row for a family (docs/fonts.md): its names, its files, why.
    static func readmeRow(_ family: FontMap.Family) -> String {
        let files = family.files.map(\.fileName).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let features = family.features.isEmpty ? "" : " (features: \(family.features.joined(separator: ", ")))"
        return "| \(family.names.joined(separator: ", ")) | \(files.joined(separator: ", "))\(features) | \(family.why) |"
    }
}
