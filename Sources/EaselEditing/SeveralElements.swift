import EaselDocuments
import EaselGeometry

/// Which edge or centre line `align` lines elements up on.
public enum AlignEdge: String, Sendable, CaseIterable {
    /// The left edges.
    case left
    /// The vertical centre lines.
    case center
    /// The right edges.
    case right
    /// The top edges.
    case top
    /// The horizontal centre lines.
    case middle
    /// The bottom edges.
    case bottom
}

/// The direction `distribute` spaces elements along.
public enum DistributeAxis: String, Sendable, CaseIterable {
    /// Left to right.
    case horizontal
    /// Top to bottom.
    case vertical
}

/// Edits of several elements at once, as the editor's multiple selection makes them: each
/// is one change of the document (one undo step when made inside `DocumentEditor.perform`).
/// Elements are measured by their bounds on the canvas: the axis-aligned box around their
/// rotated frame.
extension EditableDocument {
    /// The box on the canvas around the rotated frame of the element at `index`.
    public func bounds(of index: Int) throws(EditError) -> Rect {
        let frame = try frame(of: index)
        let (w, h) = (frame.size.width, frame.size.height)
        let corners = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)].map {
            frame.frameToParent.apply(to: $0)
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }

    /// Removes the elements at `indices` one at a time (`EditableDocument.remove(_:)` of
    /// several, by default).
    public mutating func remove(_ indices: [Int]) throws(EditError) { try removeOneByOne(indices) }

    /// `remove(_:)` of several, one `remove` at a time: each shifts the elements after it.
    mutating func removeOneByOne(_ indices: [Int]) throws(EditError) {
        for index in try Self.checked(indices, count: elementCount).reversed() { try remove(index) }
    }

    /// Moves the elements at `indices` one at a time (`EditableDocument.reorder(_:_:)` of
    /// several, by default).
    @discardableResult
    public mutating func reorder(_ indices: [Int], _ direction: OrderDirection) throws(EditError) -> [Int] {
        try reorderOneByOne(indices, direction)
    }

    /// `reorder(_:_:)` of several, one `reorder` at a time: each moves the elements it passes.
    @discardableResult
    mutating func reorderOneByOne(_ indices: [Int], _ direction: OrderDirection) throws(EditError) -> [Int] {
        let sorted = try Self.checked(indices, count: elementCount)
        // Where each moved element is now, kept up to date as the others move past it.
        var places = sorted
        let topFirst = direction == .front ? false : direction == .back ? true : direction == .forward
        let sequence = topFirst ? Array(places.indices.reversed()) : Array(places.indices)
        for position in sequence {
            let from = places[position]
            // One step towards a neighbour that also moves would leapfrog it: it stays.
            if direction == .forward, places.contains(from + 1) { continue }
            if direction == .backward, places.contains(from - 1) { continue }
            let to = try reorder(from, direction)
            for other in places.indices where other != position {
                if to > from, places[other] > from, places[other] <= to { places[other] -= 1 }
                if to < from, places[other] >= to, places[other] < from { places[other] += 1 }
            }
            places[position] = to
        }
        return places
    }

    /// Lines up the elements at `indices` on `edge`: of their bounds together, or of the
    /// canvas for a single element.
    public mutating func align(_ indices: [Int], _ edge: AlignEdge) throws(EditError) {
        let sorted = try Self.checked(indices, count: elementCount)
        var boxes: [Rect] = []
        for index in sorted { boxes.append(try bounds(of: index)) }
        let all = sorted.count == 1 ? Rect(origin: .zero, size: canvas) : boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
        for (index, box) in zip(sorted, boxes) {
            let delta: Point
            switch edge {
            case .left: delta = Point(x: all.minX - box.minX, y: 0)
            case .center: delta = Point(x: all.midX - box.midX, y: 0)
            case .right: delta = Point(x: all.maxX - box.maxX, y: 0)
            case .top: delta = Point(x: 0, y: all.minY - box.minY)
            case .middle: delta = Point(x: 0, y: all.midY - box.midY)
            case .bottom: delta = Point(x: 0, y: all.maxY - box.maxY)
            }
            if delta != .zero { try move(index, by: delta) }
        }
    }

    /// Spaces the elements at `indices` (three or more) evenly along `axis`: the first and
    /// last (by their centres) stay, and the gaps between neighbours' bounds become equal.
    public mutating func distribute(_ indices: [Int], _ axis: DistributeAxis) throws(EditError) {
        let sorted = try Self.checked(indices, count: elementCount)
        guard sorted.count >= 3 else {
            throw EditError("distribute spaces three or more elements; \(sorted.count) given", isInvalidRequest: true)
        }
        var items: [(index: Int, box: Rect)] = []
        for index in sorted { items.append((index, try bounds(of: index))) }
        let horizontal = axis == .horizontal
        let start = { (box: Rect) in horizontal ? box.minX : box.minY }
        let length = { (box: Rect) in horizontal ? box.width : box.height }
        items.sort { start($0.box) + length($0.box) / 2 < start($1.box) + length($1.box) / 2 }
        guard let first = items.first, let last = items.last else { return }
        let span = start(last.box) + length(last.box) - start(first.box)
        let gap = (span - items.map { length($0.box) }.reduce(0, +)) / Double(items.count - 1)
        var next = start(first.box) + length(first.box) + gap
        for item in items.dropFirst().dropLast() {
            let shift = next - start(item.box)
            if shift != 0 { try move(item.index, by: horizontal ? Point(x: shift, y: 0) : Point(x: 0, y: shift)) }
            next += length(item.box) + gap
        }
    }

    /// `indices` sorted, each once, every one in range; none is an error.
    static func checked(_ indices: [Int], count: Int) throws(EditError) -> [Int] {
        guard !indices.isEmpty else { throw EditError("no elements given", isInvalidRequest: true) }
        for index in indices where index < 0 || index >= count {
            throw .indexOutOfRange(index, count: count, kind: kindName)
        }
        return Array(Set(indices)).sorted()
    }
}

/// Documents rendered in parts: the editor's live previews draw the elements a gesture
/// moves on their own layer, over the rest of the document drawn without them.
extension EditableDocument {
    /// The document with only the elements at `indices`.
    public func keepingOnly(_ indices: [Int]) throws(EditError) -> Self {
        let kept = Set(try Self.checked(indices, count: elementCount))
        let others = (0..<elementCount).filter { !kept.contains($0) }
        var copy = self
        if !others.isEmpty { try copy.remove(others) }
        return copy
    }

    /// The document without the elements at `indices`.
    public func removing(_ indices: [Int]) throws(EditError) -> Self {
        var copy = self
        try copy.remove(indices)
        return copy
    }
}
