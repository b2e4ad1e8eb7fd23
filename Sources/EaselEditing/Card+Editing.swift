import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselSupport
import FoundationEssentials
import Glibc

extension Card: EditableDocument {
    /// A copy with a new id, named `<ID>.rwcard` as the app names its cards; the images
    /// stay shared (they sit in the same folder under their own names).
    public func duplicated(named original: String, taken: (String) -> Bool) -> (document: Card, fileName: String) {
        var copy = self
        repeat { copy.id = UUID() } while taken(copy.appFileName)
        return (copy, copy.appFileName)
    }

    /// The card as saved at `url` (a new card, a `save-as` copy): its id is the file name's
    /// when that is a UUID (the app names each card `<ID>.rwcard`), else a new one. A copy
    /// keeping the original's id beside it would be the same card to the app, which saves a
    /// card by its id, over the original's file.
    public func copy(savedAt url: URL) -> Card {
        var copy = self
        copy.id = UUID(uuidString: url.deletingPathExtension().lastPathComponent) ?? UUID()
        return copy
    }

    /// The card's photos (and its thumbnail, a file named by its id, as newer app versions
    /// save one) that no other card or drawing in its folder names: what the app deletes with
    /// it. Only images go (a regular file that starts as a PNG, JPEG or WebP, not hidden and
    /// not named like a document), whatever the card names. A name is looked for in the other
    /// documents' bytes, so a document that cannot be read still keeps every file it names;
    /// one that cannot be opened at all, or that writes any name with a JSON escape, keeps
    /// them all.
    public func filesOwned(savedAt url: URL) -> [URL] {
        let folder = url.deletingLastPathComponent()
        // Documents whose images resolve in this folder: cards (the app reads any file with
        // ".rwcard" in its name) and plain drawings; a drawing package keeps its own inside it.
        func namesDocument(_ name: String) -> Bool { name.contains(".rwcard") || name.hasSuffix(".drawing") }
        let names = Set(imageElements.compactMap(\.imageFilename) + [id.uuidString])
            .filter { !$0.isEmpty && !$0.contains("/") && !$0.hasPrefix(".") && !namesDocument($0) }
        let candidates = names.filter { name in
            let path = folder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }
            return ImageFormat.sniff(FileIO.head(of: path, count: 12) ?? []) != nil
        }
        guard !candidates.isEmpty,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        var owned = candidates
        for entry in entries where entry != url.lastPathComponent && namesDocument(entry) {
            var status = stat()
            let other = folder.appendingPathComponent(entry).path
            guard lstat(other, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR else { continue }
            guard let bytes = try? FileIO.readBytes(at: other, maxBytes: 256 << 20) else { return [] }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.contains("\\u") { return [] }
            owned = owned.filter { !text.contains($0) }
            if owned.isEmpty { return [] }
        }
        return owned.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The card's id, which the app saves it by.
    public var identifier: String? { id.uuidString }

    /// Cards are called "card" in messages and `info`.
    public static var kindName: String { "card" }
    /// Always the app's 1300x2000 canvas.
    public var canvas: Size { Card.canvasSize }
    /// The card's background colour; never nil, since a card is never transparent.
    public var background: Color? { backgroundColor }
    /// Images and texts together; indexes run over the images first, then the texts.
    public var elementCount: Int { imageElements.count + textElements.count }

    /// The card as its `.rwcard` JSON; throws when a custom clip has no library index.
    public func historyBytes(file: String) throws(DocumentError) -> [UInt8] {
        try CardEncoder.encode(self, file: file)
    }

    /// The card an undo step kept; its warnings are dropped (they were shown when it was opened).
    public static func fromHistoryBytes(_ bytes: [UInt8], file: String) throws(DocumentError) -> Card {
        var warnings: [DocumentWarning] = []
        return try Card(decoding: bytes, file: file, warnings: &warnings)
    }

    /// A card element's position in its own list.
    private enum Slot {
        case image(Int)
        case text(Int)
    }

    private func slot(_ index: Int) throws(EditError) -> Slot {
        guard index >= 0, index < elementCount else { throw .indexOutOfRange(index, count: elementCount, kind: "card") }
        return index < imageElements.count ? .image(index) : .text(index - imageElements.count)
    }

    /// Adds an image (after the other images, so below every text, as the app draws them)
    /// or a text (on top).
    public mutating func add(_ request: ElementRequest, resourceFolder: URL) throws -> AddedElement {
        switch try ElementFactory.cardElement(for: request, cardFolder: resourceFolder) {
        case .image(let element): return AddedElement(index: try add(element), kind: request.kind)
        case .text(let element): return AddedElement(index: try add(element), kind: request.kind)
        }
    }

    /// Adds an image element after the card's other images. Returns its index in drawing order.
    @discardableResult
    public mutating func add(_ element: ImageElement) throws(EditError) -> Int {
        guard imageElements.count < CardLimits.maxElements else {
            throw EditError("the card already has \(CardLimits.maxElements) images")
        }
        try ElementFormatCheck.check(.image(element))
        imageElements.append(element)
        return imageElements.count - 1
    }

    /// Adds a text element on top. Returns its index in drawing order.
    @discardableResult
    public mutating func add(_ element: TextElement) throws(EditError) -> Int {
        guard textElements.count < CardLimits.maxElements else {
            throw EditError("the card already has \(CardLimits.maxElements) texts")
        }
        try ElementFormatCheck.check(.text(element))
        textElements.append(element)
        return elementCount - 1
    }

    /// Applies frame, colour, text, font and clip changes; throws for a property the
    /// element does not have (a card stores no stroke, opacity or shadow; a text no clip).
    public mutating func apply(_ changes: ElementChanges, at index: Int) throws(EditError) {
        switch try slot(index) {
        case .image(let i):
            guard case .image(let element) = try CardElement.image(imageElements[i]).applying(changes) else { return }
            try ElementFormatCheck.check(.image(element))
            imageElements[i] = element
        case .text(let i):
            guard case .text(let element) = try CardElement.text(textElements[i]).applying(changes) else { return }
            try ElementFormatCheck.check(.text(element))
            textElements[i] = element
        }
    }

    /// The element's frame centre in card coordinates; throws for an index out of range.
    public func center(of index: Int) throws(EditError) -> Point {
        switch try slot(index) {
        case .image(let i): return imageElements[i].transform.center
        case .text(let i): return textElements[i].transform.center
        }
    }

    /// The element's frame on the card; throws for an index out of range.
    public func frame(of index: Int) throws(EditError) -> GraphicTransform {
        let transform: ElementTransform
        switch try slot(index) {
        case .image(let i): transform = imageElements[i].transform
        case .text(let i): transform = textElements[i].transform
        }
        return GraphicTransform(center: transform.center, size: transform.size, rotationDegrees: transform.rotationDegrees)
    }

    /// Removes the image or text at `index`; throws for an index out of range.
    public mutating func remove(_ index: Int) throws(EditError) {
        switch try slot(index) {
        case .image(let i): imageElements.remove(at: i)
        case .text(let i): textElements.remove(at: i)
        }
    }

    /// Moves an element among its own kind: the app always draws images below texts.
    @discardableResult
    public mutating func reorder(_ index: Int, _ direction: OrderDirection) throws(EditError) -> Int {
        switch try slot(index) {
        case .image(let i): return direction.move(&imageElements, from: i)
        case .text(let i): return imageElements.count + direction.move(&textElements, from: i)
        }
    }

    /// Removes the elements at `indices` in one pass over the images and one over the texts.
    public mutating func remove(_ indices: [Int]) throws(EditError) {
        let removed = Set(try Self.checked(indices, count: elementCount))
        let images = imageElements.count
        imageElements = imageElements.indices.filter { !removed.contains($0) }.map { imageElements[$0] }
        textElements = textElements.indices.filter { !removed.contains(images + $0) }.map { textElements[$0] }
    }

    /// Moves the elements at `indices` together, each among its own kind, in one pass over
    /// each kind (`OrderDirection.move(_:at:)`).
    @discardableResult
    public mutating func reorder(_ indices: [Int], _ direction: OrderDirection) throws(EditError) -> [Int] {
        let sorted = try Self.checked(indices, count: elementCount)
        let images = imageElements.count
        let movedImages = sorted.filter { $0 < images }, movedTexts = sorted.filter { $0 >= images }.map { $0 - images }
        let newImages = movedImages.isEmpty ? [] : direction.move(&imageElements, at: movedImages)
        let newTexts = movedTexts.isEmpty ? [] : direction.move(&textElements, at: movedTexts)
        return newImages + newTexts.map { $0 + images }
    }

    /// Sets the background colour; throws for nil, since a card cannot be transparent.
    public mutating func setBackground(_ color: Color?) throws(EditError) {
        guard let color else { throw EditError("a card always has a background colour") }
        backgroundColor = color
    }

    /// Every image, then every text, as `info` shows them, with image files checked in
    /// `resourceFolder`.
    public func elementDescriptions(resourceFolder: URL) -> [ElementDescription] {
        elementsInDrawingOrder.enumerated().map { index, element in
            ElementDescription(cardElement: element, index: index, folder: resourceFolder)
        }
    }
}
