import EaselSupport
import FoundationEssentials
import EaselGeometry

/// Writes cards the Cards app reads: the app's keys and value shapes, pretty-printed;
/// `frameIndex` always (null for no clip) and `frame` too when there is a clip, so that
/// both editions of the app see it.
public enum CardEncoder {
    /// The card as pretty-printed JSON; throws when a custom clip shape has no index in the
    /// app's library. `file` names the file in messages.
    public static func encode(_ card: Card, file: String) throws(DocumentError) -> [UInt8] {
        var images: [JSONValue] = []
        for (index, element) in card.imageElements.enumerated() {
            images.append(try encodeImageElement(element, keyPath: "imageElements[\(index)]", file: file))
        }
        let root: JSONValue = .object([
            ("id", .string(card.id.uuidString.uppercased())),
            ("backgroundColor", encodeColor(card.backgroundColor)),
            ("imageElements", .array(images)),
            ("textElements", .array(card.textElements.map(encodeTextElement))),
        ])
        return JSONWriter.prettyPrinted(root, fittingIn: CardLimits.maxFileBytes)
    }

    private static func encodeImageElement(_ element: ImageElement, keyPath: String, file: String) throws(DocumentError)
        -> JSONValue
    {
        var members: [(key: String, value: JSONValue)] = [("transform", encodeTransform(element.transform))]
        if let clip = element.clip {
            guard let index = clip.libraryIndex else {
                throw DocumentError(
                    file: file, keyPath: keyPath + ".frameIndex",
                    kind: .notRepresentable(
                        "the clip shape is a custom path that equals none of the app's \(LibraryShape.allCases.count) library shapes, so a card file cannot store it; choose a library shape (\(ShapeNames.clipNames.joined(separator: ", "))) or save as a drawing"
                    ))
            }
            members.append(("frameIndex", .number(Double(index))))
            members.append(("frame", .number(Double(index))))
        } else {
            members.append(("frameIndex", .null))
        }
        if let name = element.imageFilename { members.append(("imageFilename", .string(name))) }
        return .object(members)
    }

    private static func encodeTextElement(_ element: TextElement) -> JSONValue {
        .object([
            ("transform", encodeTransform(element.transform)),
            ("text", .string(element.text)),
            ("textColor", encodeColor(element.textColor)),
            ("textFont", .string(element.textFont)),
        ])
    }

    static func encodeTransform(_ transform: ElementTransform) -> JSONValue {
        .object([
            ("size", .array([.number(transform.size.width), .number(transform.size.height)])),
            ("rotation", .object([("degrees", .number(transform.rotationDegrees))])),
            ("offset", .array([.number(transform.offset.x), .number(transform.offset.y)])),
        ])
    }

    static func encodeColor(_ color: Color) -> JSONValue {
        .array(color.components.map(JSONValue.number))
    }
}
