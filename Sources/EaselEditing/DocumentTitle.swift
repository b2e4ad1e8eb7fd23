import EaselDocuments
import Foundation

/// What a document is called where people pick it (the editor's document browser): its
/// file name, unless that is only an id (the Cards app names each card by its UUID), when
/// it is the document's first text, or, with no text, the day and time it was last changed.
public enum DocumentTitle {
    /// The title of `document`, saved as `fileName` and last changed at `modified`.
    public static func title(of document: any EditableDocument, fileName: String, modified: Date) -> String {
        let stem = (fileName as NSString).deletingPathExtension
        guard UUID(uuidString: stem) != nil else { return fileName }
        for element in document.elementDescriptions(resourceFolder: URL(fileURLWithPath: "/")) {
            guard case .text(let text)? = element[.text] else { continue }
            let line =
                text.split(whereSeparator: \.isNewline).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if !line.isEmpty { return line.count > maxCharacters ? line.prefix(maxCharacters - 1) + "…" : line }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "d MMM yyyy, HH:mm"
        return formatter.string(from: modified)
    }

    /// The longest title, in characters; a longer first text is cut, with an ellipsis.
    public static let maxCharacters = 60
}
