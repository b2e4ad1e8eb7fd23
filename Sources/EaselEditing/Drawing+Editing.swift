import EaselDocuments
import EaselGeometry
import EaselSupport
import FoundationEssentials

extension Drawing: EditableDocument {
    /// Drawings are called "drawing" in messages and `info`.
    public static var kindName: String { "drawing" }
    /// The drawing's canvas size, in canvas units.
    public var canvas: Size { canvasSize }
    /// The number of top-level graphics (a group counts as one).
    public var elementCount: Int { graphics.count }

    /// The drawing as its JSON; never throws.
    public func historyBytes(file: String) throws(DocumentError) -> [UInt8] {
        DrawingEncoder.encode(self)
    }

    /// The drawing an undo step kept; warnings from reading it again are dropped.
    public static func fromHistoryBytes(_ bytes: [UInt8], file: String) throws(DocumentError) -> Drawing {
        var warnings: [DocumentWarning] = []
        return try Drawing(decoding: bytes, file: file, warnings: &warnings)
    }

    private func checkIndex(_ index: Int) throws(EditError) {
        guard index >= 0, index < graphics.count else { throw .indexOutOfRange(index, count: graphics.count, kind: "drawing") }
    }

    /// Adds the graphic `request` describes on top (see `ElementFactory.graphic`).
    public mutating func add(_ request: ElementRequest, resourceFolder: URL) throws -> AddedElement {
        let graphic = try ElementFactory.graphic(for: request, canvas: canvasSize, imageFolder: resourceFolder)
        return AddedElement(index: try add(graphic), kind: ShapeNames.name(of: graphic.kind))
    }

    /// Adds a graphic on top. Returns its index.
    @discardableResult
    public mutating func add(_ graphic: Graphic) throws(EditError) -> Int {
        guard graphics.count < DrawingLimits.maxGraphics else {
            throw EditError("the drawing already has \(DrawingLimits.maxGraphics) graphics")
        }
        try ElementFormatCheck.check(graphic, canvas: canvasSize)
        graphics.append(graphic)
        return graphics.count - 1
    }

    /// Applies `changes` to the graphic at `index`; throws for a value out of the drawing
    /// limits, an index out of range, or a property the graphic does not have.
    public mutating func apply(_ changes: ElementChanges, at index: Int) throws(EditError) {
        try checkIndex(index)
        let changed = try graphics[index].applying(changes)
        try ElementFormatCheck.check(changed, canvas: canvasSize)
        graphics[index] = changed
    }

    /// The graphic's centre in canvas coordinates; throws for an index out of range.
    public func center(of index: Int) throws(EditError) -> Point {
        try checkIndex(index)
        return graphics[index].transform.center
    }

    /// The graphic's frame on the canvas; throws for an index out of range.
    public func frame(of index: Int) throws(EditError) -> GraphicTransform {
        try checkIndex(index)
        return graphics[index].transform
    }

    /// Removes the graphic at `index` (a group goes with its children); throws when out of range.
    public mutating func remove(_ index: Int) throws(EditError) {
        try checkIndex(index)
        graphics.remove(at: index)
    }

    /// Moves the graphic at `index` among the top-level graphics; returns its new index.
    @discardableResult
    public mutating func reorder(_ index: Int, _ direction: OrderDirection) throws(EditError) -> Int {
        try checkIndex(index)
        return direction.move(&graphics, from: index)
    }

    /// Removes the graphics at `indices` in one pass.
    public mutating func remove(_ indices: [Int]) throws(EditError) {
        let removed = Set(try Self.checked(indices, count: elementCount))
        graphics = graphics.indices.filter { !removed.contains($0) }.map { graphics[$0] }
    }

    /// Moves the graphics at `indices` together in one pass (`OrderDirection.move(_:at:)`).
    @discardableResult
    public mutating func reorder(_ indices: [Int], _ direction: OrderDirection) throws(EditError) -> [Int] {
        direction.move(&graphics, at: try Self.checked(indices, count: elementCount))
    }

    /// Sets the background; nil makes the canvas transparent.
    public mutating func setBackground(_ color: Color?) throws(EditError) {
        background = color
    }

    /// Every top-level graphic as `info` shows it, with image files checked in `resourceFolder`.
    public func elementDescriptions(resourceFolder: URL) -> [ElementDescription] {
        graphics.enumerated().map { index, graphic in ElementDescription(graphic: graphic, index: index, folder: resourceFolder) }
    }
}
