import EaselDocuments
import EaselGeometry

/// One property an element can have, as Easel's one table of them (`ElementProperty.all`)
/// defines it: its name in edit requests and `info --json` (`key`) and on the command line
/// (`flag`), what value it takes (`type`, bounded by the document limits), which elements of
/// which documents have it, and how it is read from and written to them. The CLI's options
/// and completion, `easel info`, the HTTP edit API, `GET /api/schema` and the browser's
/// inspector all come from the table, so a property added there is everywhere at once.
public struct ElementProperty: Sendable {
    /// How one kind of element holds the property.
    struct Access<Element>: Sendable {
        /// Whether an element of this kind has the property (a star has points, a text has a font).
        let applies: @Sendable (Element) -> Bool
        /// The element's value; nil when it has none ("no stroke").
        let read: @Sendable (Element) -> PropertyValue?
        /// Sets the value on an element that has the property (`applies`); the value is
        /// already checked against `type`.
        let write: @Sendable (inout Element, PropertyValue) throws(EditError) -> Void

        init(
            applies: @escaping @Sendable (Element) -> Bool = { _ in true },
            read: @escaping @Sendable (Element) -> PropertyValue?,
            write: @escaping @Sendable (inout Element, PropertyValue) throws(EditError) -> Void
        ) {
            self.applies = applies
            self.read = read
            self.write = write
        }
    }

    /// The property's name in edit requests, `info --json` and the schema (`strokeWidth`).
    public let key: String
    /// Other names accepted for it (`color` for `fill`).
    public let aliases: [String]
    /// What the property is, as messages name it ("stroke width").
    public let label: String
    /// One line of help, as `easel set --help` and the inspector's tooltips show it.
    public let help: String
    /// The value it takes, with its bounds.
    public let type: PropertyType
    /// The group the inspector shows it in ("frame", "style", "text", "shape", "shadow").
    public let section: String
    /// The value `easel info`'s text leaves out, being the format's default; nil: always shown.
    public let usual: PropertyValue?
    /// Values to suggest beside free text (the Cards app's fonts); empty for none.
    public let suggestions: [String]
    /// Why no card element has it, for the error when a card is asked for it.
    let cardNote: String?
    /// How a drawing's graphics hold it; nil when no graphic has it.
    let graphic: Access<Graphic>?
    /// How a card's elements hold it; nil when no card element has it.
    let cardElement: Access<CardElement>?

    init(
        key: String, aliases: [String] = [], label: String, help: String, type: PropertyType, section: String,
        usual: PropertyValue? = nil, suggestions: [String] = [], graphic: Access<Graphic>? = nil,
        cardElement: Access<CardElement>? = nil, cardNote: String? = nil
    ) {
        self.key = key
        self.aliases = aliases
        self.label = label
        self.help = help
        self.type = type
        self.section = section
        self.usual = usual
        self.suggestions = suggestions
        self.graphic = graphic
        self.cardElement = cardElement
        self.cardNote = cardNote
    }

    /// The command-line option, `--` and the key in kebab-case (`--stroke-width`).
    public var flag: String { Self.flag(for: key) }

    /// Every option that sets the property: `flag`, then the aliases' (`--fill`, `--color`).
    public var flags: [String] { [flag] + aliases.map(Self.flag(for:)) }

    /// Every name the property is given in JSON: `key`, then the aliases.
    public var keys: [String] { [key] + aliases }

    static func flag(for key: String) -> String {
        var flag = "--"
        for character in key {
            if character.isUppercase { flag += "-" + character.lowercased() } else { flag.append(character) }
        }
        return flag
    }

    /// Whether `graphic` has this property.
    public func applies(to graphic: Graphic) -> Bool { self.graphic?.applies(graphic) ?? false }

    /// Whether `element` has this property.
    public func applies(to element: CardElement) -> Bool { cardElement?.applies(element) ?? false }

    /// The value `graphic` has; nil when it has none or the property does not apply.
    public func value(of graphic: Graphic) -> PropertyValue? {
        guard let access = self.graphic, access.applies(graphic) else { return nil }
        return access.read(graphic)
    }

    /// The value a card's `element` has; nil when it has none or the property does not apply.
    public func value(of element: CardElement) -> PropertyValue? {
        guard let access = cardElement, access.applies(element) else { return nil }
        return access.read(element)
    }

    /// Checks `value` against the property's type and bounds.
    public func check(_ value: PropertyValue) throws(EditError) {
        if let problem = type.problem(with: value, label: "the \(label)") {
            throw EditError(problem, isInvalidRequest: true, property: key)
        }
    }

    /// Reads and checks a value as an option gives it (`--at 400,300`); a value that cannot
    /// be read says what was expected (`expected X,Y in canvas units, e.g. 400,300`), as
    /// every option's does.
    public func value(fromText text: String) throws(EditError) -> PropertyValue {
        guard let value = type.value(fromText: text) else {
            throw EditError("expected \(type.expected)", isInvalidRequest: true, property: key)
        }
        try check(value)
        return value
    }
}
