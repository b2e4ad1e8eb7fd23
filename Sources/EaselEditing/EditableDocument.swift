import EaselDocuments
import EaselGeometry
import EaselSupport
import FoundationEssentials

/// A document type that can be edited element by element. Elements are addressed by their
/// index in drawing order (for a card: its images, then its texts; for a drawing: its
/// top-level graphics). Card and Drawing conform (`Card+Editing.swift`,
/// `Drawing+Editing.swift`); a library user's own type conforms the same way and is then
/// edited, undone and redone by `DocumentEditor` and the `easel` verbs like them.
public protocol EditableDocument: FileDocument, Hashable {
    /// What the kind is called in messages and `info` ("card", "drawing").
    static var kindName: String { get }
    /// The canvas in units.
    var canvas: Size { get }
    /// The background colour; nil for a transparent canvas.
    var background: Color? { get }
    /// How many elements can be addressed by index.
    var elementCount: Int { get }

    /// The bytes one undo step keeps of this version (the document as saved).
    func historyBytes(file: String) throws(DocumentError) -> [UInt8]
    /// The version `historyBytes` kept.
    static func fromHistoryBytes(_ bytes: [UInt8], file: String) throws(DocumentError) -> Self

    /// Adds the element `request` describes; images it names are brought into
    /// `resourceFolder`. Returns where it went and what kind it is.
    mutating func add(_ request: ElementRequest, resourceFolder: URL) throws -> AddedElement
    /// Applies `changes` to the element at `index`.
    mutating func apply(_ changes: ElementChanges, at index: Int) throws(EditError)
    /// The centre of the element at `index`, in canvas coordinates.
    func center(of index: Int) throws(EditError) -> Point
    /// The frame of the element at `index` on the canvas: its centre, size and rotation.
    func frame(of index: Int) throws(EditError) -> GraphicTransform
    /// Removes the element at `index`.
    mutating func remove(_ index: Int) throws(EditError)
    /// Moves the element at `index` in the drawing order; returns its new index.
    mutating func reorder(_ index: Int, _ direction: OrderDirection) throws(EditError) -> Int
    /// Removes the elements at `indices` (in any order, each once). By default one at a time
    /// (`removeOneByOne`); Card and Drawing remove them in one pass over their elements.
    mutating func remove(_ indices: [Int]) throws(EditError)
    /// Moves the elements at `indices` together in the drawing order, keeping their order
    /// among themselves (forward and backward move each past one element that is not
    /// moved); returns their new indices, in the order of their old ones. By default one at
    /// a time (`reorderOneByOne`); Card and Drawing move them in one pass
    /// (`OrderDirection.move(_:at:)`).
    @discardableResult
    mutating func reorder(_ indices: [Int], _ direction: OrderDirection) throws(EditError) -> [Int]
    /// Sets the background; nil makes the canvas transparent where the kind allows it.
    mutating func setBackground(_ color: Color?) throws(EditError)
    /// Every element as `info` shows it; images are looked up in `resourceFolder`.
    func elementDescriptions(resourceFolder: URL) -> [ElementDescription]

    /// The document's own identifier, when its format has one (a card's id), for `info`.
    var identifier: String? { get }

    /// The document as saved as a new file at `url` (`save-as`): by default the same value;
    /// a card takes its id from the file name, as the app names cards.
    func copy(savedAt url: URL) -> Self

    /// The files beside the document, saved at `url`, that belong to it alone and go with it
    /// when it is deleted (a card's photos that no other document in its folder names, as
    /// the app deletes a card's images); by default none.
    func filesOwned(savedAt url: URL) -> [URL]

    /// A copy to save as a new document beside this one, and its file name there: by
    /// default the same value as "NAME copy.EXT" (numbered when taken; see
    /// `copyName(of:taken:)`); a card gets a new id and is named by it, as the app names cards.
    func duplicated(named original: String, taken: (String) -> Bool) -> (document: Self, fileName: String)
}

extension EditableDocument {
    /// By default a document has no identifier of its own.
    public var identifier: String? { nil }
    /// By default a copy saved elsewhere is the same value.
    public func copy(savedAt url: URL) -> Self { self }

    /// By default a document owns no other files.
    public func filesOwned(savedAt url: URL) -> [URL] { [] }

    /// By default the frame `elementDescriptions` gives the element.
    public func frame(of index: Int) throws(EditError) -> GraphicTransform {
        let descriptions = elementDescriptions(resourceFolder: URL(fileURLWithPath: "/"))
        guard descriptions.indices.contains(index) else {
            throw .indexOutOfRange(index, count: descriptions.count, kind: kindName)
        }
        let element = descriptions[index]
        return GraphicTransform(center: element.center, size: element.size, rotationDegrees: element.rotation)
    }
}

/// Where an added element went.
public struct AddedElement: Hashable, Sendable {
    /// Its index in drawing order.
    public var index: Int
    /// What kind of element it became ("rectangle", "image", "text"...).
    public var kind: String

    /// An added element at `index` in drawing order, of kind `kind`.
    public init(index: Int, kind: String) {
        self.index = index
        self.kind = kind
    }
}

extension EditableDocument {
    /// Moves the element at `index` by `delta`.
    public mutating func move(_ index: Int, by delta: Point) throws(EditError) {
        var changes = ElementChanges()
        changes.center = try center(of: index) + delta
        do {
            try apply(changes, at: index)
        } catch {
            // The new position is out of range because of the distance moved.
            var error = error
            if error.property == "at" { error.property = "by" }
            throw error
        }
    }

    /// Whether `other` is the same kind of document with the same content.
    public func isEqual(to other: any EditableDocument) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }

    /// The kind's name, from a value.
    public var kindName: String { Self.kindName }

    public func duplicated(named original: String, taken: (String) -> Bool) -> (document: Self, fileName: String) {
        (self, Self.copyName(of: original, taken: taken))
    }

    /// "NAME copy.EXT", or "NAME copy 2.EXT" and so on when a name is `taken`.
    public static func copyName(of original: String, taken: (String) -> Bool) -> String {
        let url = URL(fileURLWithPath: original)
        let base = url.deletingPathExtension().lastPathComponent, ext = url.pathExtension
        var candidate = "\(base) copy" + (ext.isEmpty ? "" : ".\(ext)")
        var number = 2
        while taken(candidate) {
            candidate = "\(base) copy \(number)" + (ext.isEmpty ? "" : ".\(ext)")
            number += 1
        }
        return candidate
    }

    /// The version `historyBytes` kept, as a document of the same type as `self`.
    func restored(from bytes: [UInt8], file: String) throws(DocumentError) -> any EditableDocument {
        try Self.fromHistoryBytes(bytes, file: file)
    }
}

/// Where `order` moves an element.
public enum OrderDirection: String, Sendable, CaseIterable {
    /// Drawn last (on top).
    case front
    /// Drawn first (at the bottom).
    case back
    /// One step towards the front.
    case forward
    /// One step towards the back.
    case backward

    /// Moves `list[index]` in this direction; returns its new index.
    public func move<T>(_ list: inout [T], from index: Int) -> Int {
        let target: Int
        switch self {
        case .front: target = list.count - 1
        case .back: target = 0
        case .forward: target = min(list.count - 1, index + 1)
        case .backward: target = max(0, index - 1)
        }
        let item = list.remove(at: index)
        list.insert(item, at: target)
        return target
    }

    /// Moves the items of `list` at `indices` (ascending, each once, each valid) together in
    /// this direction, in one pass whatever their number: what moving them one at a time
    /// (`move(_:from:)`, as `reorderOneByOne` does) gives. Their order among themselves is
    /// kept; forward and backward take each run of them past the one item beyond it that
    /// does not move. Returns their new indices, ascending.
    public func move<T>(_ list: inout [T], at indices: [Int]) -> [Int] {
        var moving = [Bool](repeating: false, count: list.count)
        for index in indices { moving[index] = true }
        switch self {
        case .front, .back:
            var kept: [T] = [], moved: [T] = []
            kept.reserveCapacity(list.count - indices.count)
            moved.reserveCapacity(indices.count)
            for (index, item) in list.enumerated() {
                if moving[index] { moved.append(item) } else { kept.append(item) }
            }
            list = self == .front ? kept + moved : moved + kept
            let first = self == .front ? kept.count : 0
            return Array(first..<(first + moved.count))
        case .forward:
            // From the top down, a moving item swaps with a still one just above it: the
            // still one goes below the whole run.
            for index in stride(from: list.count - 2, through: 0, by: -1) where moving[index] && !moving[index + 1] {
                list.swapAt(index, index + 1)
                moving.swapAt(index, index + 1)
            }
        case .backward:
            for index in stride(from: 1, to: list.count, by: 1) where moving[index] && !moving[index - 1] {
                list.swapAt(index, index - 1)
                moving.swapAt(index, index - 1)
            }
        }
        return moving.indices.filter { moving[$0] }
    }
}
