import EaselGeometry
import EaselSupport
/// Undo and redo as a history of document values (mementos). Documents are values, so a
/// memento is simply an earlier document; an edit records the value it replaced.
///
/// Bounded: at most `maxDepth` undo steps are kept (the oldest are dropped). A new edit
/// after an undo drops the redo branch, as every editor does.
public struct History<Document: Hashable & Sendable>: Hashable, Sendable {
    /// The earlier versions that `undo` steps back through, oldest first.
    public private(set) var undoStack: [Document] = []
    /// The versions that `redo` steps forward through, the next one last; emptied by a new edit.
    public private(set) var redoStack: [Document] = []
    /// The most undo steps kept (at least 1); older ones are dropped.
    public let maxDepth: Int

    /// An empty history keeping up to `maxDepth` undo steps; `maxDepth` must be positive.
    public init(maxDepth: Int = 100) {
        precondition(maxDepth > 0, "a history needs room for at least one step")
        self.maxDepth = maxDepth
    }

    /// Restores a history from stored stacks (oldest first), trimmed to `maxDepth`.
    public init(undoStack: [Document], redoStack: [Document], maxDepth: Int = 100) {
        self.init(maxDepth: maxDepth)
        self.undoStack = Array(undoStack.suffix(maxDepth))
        self.redoStack = Array(redoStack.suffix(maxDepth))
    }

    /// True when there is an earlier version to go back to.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// True when an undo can be redone (no edit has been made since it).
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Applies `edit` to `document`, recording the previous value when it changed.
    /// Returns whether it changed.
    @discardableResult
    public mutating func perform(_ edit: (inout Document) throws -> Void, on document: inout Document) rethrows -> Bool {
        var edited = document
        try edit(&edited)
        guard edited != document else { return false }
        record(replacing: document)
        document = edited
        return true
    }

    /// Records that `previous` is being replaced by an edit.
    public mutating func record(replacing previous: Document) {
        undoStack.append(previous)
        if undoStack.count > maxDepth { undoStack.removeFirst(undoStack.count - maxDepth) }
        redoStack.removeAll()
    }

    /// The value before the last edit, or nil when there is nothing to undo. `current` is
    /// kept for redo.
    public mutating func undo(from current: Document) -> Document? {
        guard let previous = undoStack.popLast() else { return nil }
        redoStack.append(current)
        return previous
    }

    /// The value the last undo replaced, or nil when there is nothing to redo.
    public mutating func redo(from current: Document) -> Document? {
        guard let next = redoStack.popLast() else { return nil }
        undoStack.append(current)
        return next
    }
}
