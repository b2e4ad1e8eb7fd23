import EaselGeometry
import EaselDocuments

/// Changes to one element's properties; nil leaves a property as it is. Positions are
/// the element's centre in canvas coordinates (for a card too: the app's offset is the
/// centre minus the card's centre, 650,1000).
public struct ElementChanges: Hashable, Sendable {
    /// The new centre of the element's frame, in canvas coordinates.
    public var center: Point?
    /// The new frame width and height, in canvas units (0 or more).
    public var size: Size?
    /// The new clockwise rotation, in degrees (replaces the old one, does not add to it).
    public var rotationDegrees: Double?
    /// `.some(nil)` removes the fill.
    public var fill: Color??
    /// The new stroke colour; strokes an unstroked graphic (1 unit wide unless set).
    public var strokeColor: Color?
    /// The new stroke width in canvas units; strokes an unstroked graphic (in black unless set).
    public var strokeWidth: Double?
    /// True removes the stroke; the other stroke changes are then ignored.
    public var removeStroke = false
    /// New dash and gap lengths in canvas units; empty makes the line solid again.
    public var dash: [Double]?
    /// The new shape of open line ends.
    public var cap: Stroke.Cap?
    /// The new shape of stroke corners.
    public var join: Stroke.Join?
    /// The new opacity, 0 (invisible) to 1 (opaque); drawings only.
    public var opacity: Double?
    /// `.some(nil)` removes the clip.
    public var clip: ClipShape??
    /// The new text of a text element.
    public var text: String?
    /// The new font name of a text element (mapped to an installed font when drawn).
    public var font: String?
    /// The new font size of a drawing's text, in canvas units.
    public var fontSize: Double?
    /// The new horizontal alignment of a drawing's text.
    public var alignment: TextContent.Alignment?
    /// The new label of a drawing's graphic; an empty string removes it.
    public var name: String?

    /// No changes: every property is left as it is.
    public init() {}

    /// True when no property is set to change (and `removeStroke` is false).
    public var isEmpty: Bool { self == ElementChanges() }

    /// Checks values against the document limits before anything is applied.
    public func validate() throws(EditError) {
        func check(_ value: Double?, _ what: String, _ range: ClosedRange<Double>, _ property: String) throws(EditError) {
            guard let value else { return }
            guard value.isFinite, range.contains(value) else {
                throw EditError(
                    "\(what) must be from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound)), not \(formatNumber(value))",
                    property: property)
            }
        }
        let coordinate = -DrawingLimits.maxCoordinate...DrawingLimits.maxCoordinate
        try check(center?.x, "the x position", coordinate, "at")
        try check(center?.y, "the y position", coordinate, "at")
        try check(size?.width, "the width", 0...DrawingLimits.maxCoordinate, "size")
        try check(size?.height, "the height", 0...DrawingLimits.maxCoordinate, "size")
        try check(
            rotationDegrees, "the rotation", -DrawingLimits.maxRotationDegrees...DrawingLimits.maxRotationDegrees, "rotation")
        try check(strokeWidth, "the stroke width", 0...DrawingLimits.maxStrokeWidth, "strokeWidth")
        try check(opacity, "the opacity", 0...1, "opacity")
        try check(fontSize, "the font size", 0...DrawingLimits.maxFontSize, "fontSize")
        for length in dash ?? [] { try check(length, "a dash length", 0...DrawingLimits.maxStrokeWidth, "dash") }
        if let dash, !dash.isEmpty, dash.allSatisfy({ $0 == 0 }) {
            throw EditError("a dash pattern cannot be all zeros", property: "dash")
        }
        if let text, let problem = TextLimits.problem(with: text) { throw EditError(problem, property: "text") }
        if let fill = fill ?? nil, !fill.isFinite {
            throw EditError("colour components must be finite numbers", property: "fill")
        }
        if let strokeColor, !strokeColor.isFinite {
            throw EditError("colour components must be finite numbers", property: "stroke")
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
        } else if changes.strokeColor != nil || changes.strokeWidth != nil || changes.dash != nil || changes.cap != nil
            || changes.join != nil
        {
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
                throw EditError(
                    "--text, --font, --font-size and --align apply to text graphics; this is a \(ShapeNames.name(of: graphic.kind))"
                )
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
