import EaselDocuments
import EaselEditing
import Foundation
import Testing

/// What the document browser calls a document: its file name, or, for a card the app named
/// by its id, its first text or the date it was changed.
@Suite("Document titles")
struct DocumentTitleTests {
    static let day = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func aCardNamedByItsIdIsCalledByItsFirstText() throws {
        var card = Card()
        try card.add(ImageElement(imageFilename: nil))
        try card.add(TextElement(text: "  \n"))
        try card.add(TextElement(text: "Happy birthday\nfrom all of us"))
        #expect(DocumentTitle.title(of: card, fileName: card.appFileName, modified: Self.day) == "Happy birthday")
        let long = Card(textElements: [TextElement(text: String(repeating: "la ", count: 40))])
        let title = DocumentTitle.title(of: long, fileName: long.appFileName, modified: Self.day)
        #expect(title.count == DocumentTitle.maxCharacters && title.hasSuffix("…"))
    }

    @Test func withNoTextItIsTheDateAndANamedFileKeepsItsName() {
        let card = Card()
        let title = DocumentTitle.title(of: card, fileName: card.appFileName, modified: Self.day)
        #expect(title.hasSuffix(" 2026, \(title.suffix(5))") && title.count <= 18 && title.contains(" Nov "), "\(title)")
        #expect(DocumentTitle.title(of: card, fileName: "birthday.rwcard", modified: Self.day) == "birthday.rwcard")
        // As Foundation's formatter wrote it, in the machine's time zone, on days with one
        // digit and two.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "d MMM yyyy, HH:mm"
        for day in [Self.day, Date(timeIntervalSince1970: 1_796_000_000), Date(timeIntervalSince1970: 0)] {
            #expect(DocumentTitle.title(of: card, fileName: card.appFileName, modified: day) == formatter.string(from: day))
        }
        // A time no file can have leaves the file's name, rather than a trap.
        for impossible in [1e300, -1e300, .nan] {
            let title = DocumentTitle.title(
                of: card, fileName: card.appFileName, modified: Date(timeIntervalSince1970: impossible))
            #expect(title == card.appFileName)
        }
        #expect(DocumentTitle.title(of: Drawing(), fileName: "Poster.drawing", modified: Self.day) == "Poster.drawing")
    }
}
