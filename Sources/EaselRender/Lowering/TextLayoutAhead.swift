import EaselCairo
import EaselSupport

/// A document's texts laid out before its lowering places them, by every thread that has
/// nothing better to do: the one lowering the document starts, among its image decodings,
/// and another may join (`easel export`'s main thread, once it has parsed the arguments,
/// instead of waiting for that lowering). Each text is laid out once, and the lowering takes
/// its line from here rather than laying it out again.
public final class TextLayoutAhead: Sendable {
    private struct Key: Hashable {
        var text: String
        var fontName: String
    }

    private struct State {
        var texts: [(text: String, fontName: String)] = []
        var fonts: FontLibrary?
        var deadline: UInt64?
        var next = 0
        var lines: [Key: TextLine] = [:]
    }

    private let state = Locked(State())

    /// Nothing to lay out until the lowering `begin`s.
    public init() {}

    /// The texts to lay out (the first call's; a later one changes nothing).
    func begin(_ texts: [(text: String, fontName: String)], fonts: FontLibrary, deadline: UInt64?) {
        state.withLock { state in
            guard state.fonts == nil else { return }
            (state.texts, state.fonts, state.deadline) = (texts, fonts, deadline)
        }
    }

    /// Lays out the texts no thread has taken yet, one at a time, until none is left; returns
    /// at once before `begin` or after the last. Their fonts (and the fallbacks they need)
    /// are loaded on the way.
    public func layOut() {
        while true {
            let taken = state.withLock { state -> (text: String, fontName: String, FontLibrary, UInt64?)? in
                guard let fonts = state.fonts, state.next < state.texts.count else { return nil }
                defer { state.next += 1 }
                let (text, fontName) = state.texts[state.next]
                return (text, fontName, fonts, state.deadline)
            }
            guard let (text, fontName, fonts, deadline) = taken else { return }
            var ignored: [DocumentWarning] = []
            guard
                let line = TextPlacement.layout(
                    text, fontName: fontName, fonts: fonts, file: "", keyPath: "", fontKey: "", deadline: deadline,
                    warnings: &ignored)
            else { continue }
            state.withLock { $0.lines[Key(text: text, fontName: fontName)] = line }
        }
    }

    /// The line `text` in `fontName` was laid out to, if it was.
    func line(for text: String, fontName: String) -> TextLine? {
        state.withLock { $0.lines[Key(text: text, fontName: fontName)] }
    }
}
