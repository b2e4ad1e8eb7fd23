import EaselGeometry
import EaselDocuments

/// New values for some of an element's properties (`ElementProperty`); the others are left
/// as they are. Positions are the element's centre in canvas coordinates (for a card too:
/// the app's offset is the centre minus the card's centre, 650,1000).
public struct ElementChanges: Hashable, Sendable {
    /// The new values, by property key.
    public private(set) var values: [String: PropertyValue] = [:]

    /// No changes: every property is left as it is.
    public init() {}

    /// True when no property is set to change.
    public var isEmpty: Bool { values.isEmpty }

    /// The new value of `property`; nil leaves it as it is.
    public subscript(property: ElementProperty) -> PropertyValue? {
        get { values[property.key] }
        set { values[property.key] = newValue }
    }

    /// The new centre of the element's frame, in canvas coordinates (`ElementProperty.at`).
    public var center: Point? {
        get { if case .point(let point) = self[.at] { point } else { nil } }
        set { self[.at] = newValue.map(PropertyValue.point) }
    }

    /// The new frame width and height (`ElementProperty.size`).
    public var size: Size? {
        get { if case .size(let size) = self[.size] { size } else { nil } }
        set { self[.size] = newValue.map(PropertyValue.size) }
    }

    /// The new clockwise rotation in degrees (`ElementProperty.rotation`).
    public var rotationDegrees: Double? {
        get { self[.rotation]?.number }
        set { self[.rotation] = newValue.map(PropertyValue.number) }
    }

    /// The changes in the order they apply: the table's, with values of `none` last (so
    /// `--stroke none` wins over `--stroke-width 3` in one edit).
    public var inOrder: [(property: ElementProperty, value: PropertyValue)] {
        let set = ElementProperty.all.compactMap { property in values[property.key].map { (property, $0) } }
        return set.filter { !$0.1.removes } + set.filter { $0.1.removes }
    }

    /// Checks every value against its property's type and bounds (the document limits).
    public func validate() throws(EditError) {
        for (property, value) in inOrder { try property.check(value) }
    }
}

extension ElementChanges {
    /// `element` with the changes written through `access`, each property's way of holding it
    /// in this kind of element; `missing` says why an element lacks a property.
    func applied<Element>(
        to element: Element, through access: Swift.KeyPath<ElementProperty, ElementProperty.Access<Element>?>,
        missing: (ElementProperty, Element) -> EditError
    ) throws(EditError) -> Element {
        try validate()
        var element = element
        for (property, value) in inOrder {
            guard let holder = property[keyPath: access], holder.applies(element) else { throw missing(property, element) }
            try holder.write(&element, value)
        }
        return element
    }
}

extension Graphic {
    /// The graphic with `changes` applied; throws for a value out of bounds or a property
    /// this kind of graphic does not have.
    public func applying(_ changes: ElementChanges) throws(EditError) -> Graphic {
        try changes.applied(to: self, through: \.graphic) { property, graphic in
            EditError("\(withArticle(ShapeNames.name(of: graphic.kind))) has no \(property.label)", property: property.key)
        }
    }
}

extension CardElement {
    /// The element with `changes` applied; throws for a value out of bounds or a property
    /// this kind of card element does not have.
    public func applying(_ changes: ElementChanges) throws(EditError) -> CardElement {
        try changes.applied(to: self, through: \.cardElement) { property, element in
            let why = property.cardNote.map { ": \($0)" } ?? ""
            return EditError(
                "a card's \(element.isText ? "text" : "image") has no \(property.label)\(why)", property: property.key)
        }
    }
}

/// "a star", "an ellipse".
private func withArticle(_ noun: String) -> String {
    (noun.first.map { "aeiou".contains($0) } ?? false) ? "an \(noun)" : "a \(noun)"
}
