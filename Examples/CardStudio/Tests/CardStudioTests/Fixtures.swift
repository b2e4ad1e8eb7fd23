import Foundation

/// The example's documents: a card from the Cards app with its four images, and a drawing.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let documents = packageRoot.appendingPathComponent("Documents")
    static let card = documents.appendingPathComponent("1A2B3C4D-0000-4000-8000-000000000001.rwcard")
    static let drawing = documents.appendingPathComponent("Showcase.drawing")
}
