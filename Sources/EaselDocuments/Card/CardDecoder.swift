import EaselSupport
import FoundationEssentials
import EaselGeometry

/// Reads `.rwcard` JSON as every edition of the Cards app writes it (see
/// docs/formats.md): `frameIndex` (edition 2) or `frame` (edition 1), legacy cards
/// with only `id` and `imageElements`, extended-sRGB colours, any key order, integer or
/// double numbers, escaped slashes, invalid ids, and `"none"` image names.
public enum CardDecoder {
    /// The card in `bytes`; recoverable oddities (a legacy card, an invalid id) are appended
    /// to `warnings`, anything else throws. `file` names the file in messages.
    /// `fileNameID` is the UUID the card's file is named by, if it is (`<UUID>.rwcard`): an
    /// invalid `id` then takes it, so that the id and the file name agree as the app keeps them.
    public static func decode(
        _ bytes: [UInt8], file: String, fileNameID: UUID? = nil, warnings: inout [DocumentWarning]
    ) throws(DocumentError) -> Card {
        if bytes.count > CardLimits.maxFileBytes {
            throw DocumentError(
                file: file,
                kind: .limitExceeded("the file is \(bytes.count) bytes, over the card limit of \(CardLimits.maxFileBytes) bytes"))
        }
        let root = try JSONNode.parse(bytes, file: file)
        guard case .object = root.shape else { throw root.typeMismatch(expected: "a card object") }

        let id = try decodeID(root.required("id"), fileNameID: fileNameID, warnings: &warnings)
        if let fileNameID, fileNameID != id {
            warnings.append(
                DocumentWarning(
                    file: file, keyPath: "id",
                    message:
                        "the file is named by \(fileNameID.uuidString) but the card's id is \(id.uuidString); the app names a card's file by its id, so it would save this card as \(id.uuidString).rwcard beside this file"
                ))
        }
        let imageElements = try root.required("imageElements")
            .array(maxCount: CardLimits.maxElements, of: "image elements")
            .map { (node) throws(DocumentError) in try decodeImageElement(node, warnings: &warnings) }

        // Cards from before the app saved text and colours have neither key: upgrade them.
        let textNode = try root.optional("textElements")
        let backgroundNode = try root.optional("backgroundColor")
        if textNode == nil && backgroundNode == nil {
            warnings.append(
                DocumentWarning(
                    file: file,
                    message:
                        "a legacy card (no textElements or backgroundColor): upgraded with no text and the default background",
                    upgradesFormatOnSave: true))
            return Card(id: id, backgroundColor: Card.defaultBackground, imageElements: imageElements, textElements: [])
        }
        guard let textNode else { throw root.error(.missingKey("textElements")) }
        guard let backgroundNode else { throw root.error(.missingKey("backgroundColor")) }
        let textElements =
            try textNode
            .array(maxCount: CardLimits.maxElements, of: "text elements")
            .map { (node) throws(DocumentError) in try decodeTextElement(node) }
        let background = try decodeColor(backgroundNode)
        return Card(id: id, backgroundColor: background, imageElements: imageElements, textElements: textElements)
    }

    private static func decodeID(_ node: JSONNode, fileNameID: UUID?, warnings: inout [DocumentWarning]) throws(DocumentError)
        -> UUID
    {
        let text = try node.string()
        if let id = UUID(uuidString: text) { return id }
        let id = fileNameID ?? UUID()
        warnings.append(
            DocumentWarning(
                file: node.file, keyPath: "id",
                message: fileNameID == nil
                    ? "\"\(text.prefix(60))\" is not a UUID; the card gets the new id \(id.uuidString) (as the app does)"
                    : "\"\(text.prefix(60))\" is not a UUID; the card takes the id its file is named by, \(id.uuidString)"))
        return id
    }

    static func decodeTransform(_ node: JSONNode) throws(DocumentError) -> ElementTransform {
        let sizeNode = try node.required("size")
        let size = try sizeNode.numbers(count: 2, meaning: "width, height")
        let offsetNode = try node.required("offset")
        let offset = try offsetNode.numbers(count: 2, meaning: "dx, dy")
        let degreesNode = try node.required("rotation").required("degrees")
        let degrees = try degreesNode.double()
        for (value, place) in [(size[0], sizeNode), (size[1], sizeNode), (offset[0], offsetNode), (offset[1], offsetNode)]
        where abs(value) > CardLimits.maxCoordinate {
            throw place.error(
                .limitExceeded(
                    "\(JSONWriter.format(number: value)) is beyond the coordinate limit of ±\(JSONWriter.format(number: CardLimits.maxCoordinate))"
                ))
        }
        if abs(degrees) > CardLimits.maxRotationDegrees {
            throw degreesNode.error(
                .limitExceeded(
                    "a rotation of \(JSONWriter.format(number: degrees)) degrees is beyond the limit of ±\(JSONWriter.format(number: CardLimits.maxRotationDegrees))"
                ))
        }
        return ElementTransform(
            size: Size(width: size[0], height: size[1]), rotationDegrees: degrees,
            offset: Point(x: offset[0], y: offset[1]))
    }

    private static func decodeImageElement(_ node: JSONNode, warnings: inout [DocumentWarning]) throws(DocumentError)
        -> ImageElement
    {
        let transform = try decodeTransform(node.required("transform"))
        var filename: String?
        if let nameNode = try node.optionalNonNull("imageFilename") {
            let name = try nameNode.string()
            if name.utf8.count > CardLimits.maxFilenameBytes {
                throw nameNode.error(
                    .limitExceeded(
                        "an image file name of \(name.utf8.count) bytes, over the limit of \(CardLimits.maxFilenameBytes)"))
            }
            filename = name == "none" ? nil : name
        }
        let indexFromFrameIndex = try node.optionalNonNull("frameIndex").map { (n) throws(DocumentError) in try clipIndex(n) }
        let indexFromFrame = try node.optionalNonNull("frame").map { (n) throws(DocumentError) in try clipIndex(n) }
        // `frameIndex` written at all is the current app's word, null meaning no clip (edition
        // 2 always writes it); `frame` speaks only where it is absent (edition 1).
        let hasFrameIndex = try node.optional("frameIndex") != nil
        if let b = indexFromFrame, hasFrameIndex, indexFromFrameIndex != b {
            warnings.append(
                DocumentWarning(
                    file: node.file, keyPath: node.path.description,
                    message:
                        "frameIndex \(indexFromFrameIndex.map(String.init) ?? "null (no clip)") and frame \(b) disagree; using frameIndex (the newer app's key)"
                ))
        }
        let clip = (hasFrameIndex ? indexFromFrameIndex : indexFromFrame).flatMap(LibraryShape.init(rawValue:)).map(
            ClipShape.library)
        return ImageElement(transform: transform, imageFilename: filename, clip: clip)
    }

    private static func clipIndex(_ node: JSONNode) throws(DocumentError) -> Int {
        let index = try node.int()
        guard LibraryShape(rawValue: index) != nil else {
            throw node.typeMismatch(expected: "a clip-shape index from 0 to \(LibraryShape.allCases.count - 1)")
        }
        return index
    }

    private static func decodeTextElement(_ node: JSONNode) throws(DocumentError) -> TextElement {
        let transform = try decodeTransform(node.required("transform"))
        let textNode = try node.required("text")
        let text = try textNode.string()
        if let problem = TextLimits.problem(with: text) { throw textNode.error(.limitExceeded(problem)) }
        let color = try decodeColor(node.required("textColor"))
        let font = try node.required("textFont").string()
        return TextElement(transform: transform, text: text, textColor: color, textFont: font)
    }

    static func decodeColor(_ node: JSONNode) throws(DocumentError) -> Color {
        let c = try node.numbers(count: 4, meaning: "red, green, blue, alpha in extended sRGB")
        return Color(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
}
