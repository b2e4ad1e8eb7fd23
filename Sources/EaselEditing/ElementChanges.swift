import EaselGeometry
import EaselDocuments

/// Changes to one element's properties; nil leaves a property as it is. Positions are
/// the element's centre in canvas coordinates (for a card too: the app's offset is the
/// centre minus the card's centre, 650,1000).
public struct ElementChanges: Hashable, Sendable {
    public var center: Point?
    public var size: Size?
    public var rotationDegrees: Double?
    /// `.some(nil)` removes the fill.
    public var fill: Color??
    public var strokeColor: Color?
    public var strokeWidth: Double?
    public var removeStroke = false
    public var dash: [Double]?
    public var cap: Stroke.Cap?
    public var join: Stroke.Join?
    public var opacity: Double?
    /// `.some(nil)` removes the clip.
    public var clip: ClipShape??
    public var text: String?
    public var font: String?
    public var fontSize: Double?
    public var alignment: TextContent.Alignment?
    public var name: String?

    public init() {}

    public var isEmpty: Bool { self == ElementChanges() }

    /// Checks values against the document limits before anything is applied.
    public func validate() throws(EditError) {
        func check(_ value: Double?, _ what: String, _ range: ClosedRange<Double>) throws(EditError) {
            guard let value else { return }
            guard value.isFinite, range.contains(value) else {
                throw EditError("\(what) must be from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound)), not \(formatNumber(value))")
            }
        }
        let coordinate = -DrawingLimits.maxCoordinate...DrawingLimits.maxCoordinate
        try check(center?.x, "the x position", coordinate)
        try check(center?.y, "the y position", coordinate)
        try check(size?.width, "the width", 0...DrawingLimits.maxCoordinate)
        try check(size?.height, "the height", 0...DrawingLimits.maxCoordinate)
        try check(rotationDegrees, "the rotation", -DrawingLimits.maxRotationDegrees...DrawingLimits.maxRotationDegrees)
        try check(strokeWidth, "the stroke width", 0...DrawingLimits.maxStrokeWidth)
        try check(opacity, "the opacity", 0...1)
        try check(fontSize, "the font size", 0...DrawingLimits.maxFontSize)
        for length in dash ?? [] { try check(length, "a dash length", 0...DrawingLimits.maxStrokeWidth) }
        if let dash, !dash.isEmpty, dash.allSatisfy({ $0 == 0 }) { throw EditError("a dash pattern cannot be all zeros") }
        if let text, text.count > DrawingLimits.maxTextCharacters { throw EditError("a text is limited to \(DrawingLimits.maxTextCharacters) characters") }
        for color in [fill ?? nil, strokeColor].compactMap({ $0 }) where !color.isFinite {
            throw EditError("colour components must be finite numbers")
        }
    }
}

extension Graphic {
    /// The graphic with `changes` applied.
    public func applying(_ changes: ElementChanges) throws(EditError) -> Graphic {
        var graphic = self
        if let center = changes.center { graphic.transform.center = center }
        if let size = changes.size { graphic.transform.size = size }
        if let rotation = changes.rotationDegrees { graphic.transform.rotationDegrees = rotation }
        if let fill = changes.fill { graphic.fill = fill }
        if changes.removeStroke {
            graphic.stroke = nil
        } else if changes.strokeColor != nil || changes.strokeWidth != nil || changes.dash != nil || changes.cap != nil || changes.join != nil {
            var stroke = graphic.stroke ?? Stroke()
            if let color = changes.strokeColor { stroke.color = color }
            if let width = changes.strokeWidth { stroke.width = width }
            if let dash = changes.dash { stroke.dash = dash }
            if let cap = changes.cap { stroke.cap = cap }
            if let join = changes.join { stroke.join = join }
            graphic.stroke = stroke
        }
        if let opacity = changes.opacity { graphic.opacity = opacity }
        if let clip = changes.clip { graphic.clip = clip }
        if let name = changes.name { graphic.name = name.isEmpty ? nil : name }
        let textChanges = changes.text != nil || changes.font != nil || changes.fontSize != nil || changes.alignment != nil
        if textChanges {
            guard case .text(var content) = graphic.kind else {
                throw EditError("--text, --font, --font-size and --align apply to text graphics; this is a \(graphic.kind.name)")
            }
            if let text = changes.text { content.string = text }
            if let font = changes.font { content.fontFamily = font }
            if let size = changes.fontSize { content.fontSize = size }
            if let alignment = changes.alignment { content.alignment = alignment }
            graphic.kind = .text(content)
        }
        return graphic
    }
}
