import EaselDocuments
import FoundationEssentials
import Glibc

/// What a document is called where people pick it (the editor's document browser): its
/// file name, unless that is only an id (the Cards app names each card by its UUID), when
/// it is the document's first text, or, with no text, the day and time it was last changed.
public enum DocumentTitle {
    /// The title of `document`, saved as `fileName` and last changed at `modified`.
    public static func title(of document: any EditableDocument, fileName: String, modified: Date) -> String {
        let stem = PathNames.deletingExtension(of: fileName)
        guard UUID(uuidString: stem) != nil else { return fileName }
        for element in document.elementDescriptions(resourceFolder: URL(fileURLWithPath: "/")) {
            guard case .text(let text)? = element[.text] else { continue }
            let line =
                text.split(whereSeparator: \.isNewline).first.map(String.init)?
                .trimmingWhitespace ?? ""
            if !line.isEmpty { return line.count > maxCharacters ? line.prefix(maxCharacters - 1) + "…" : line }
        }
        return dayAndTime(modified)
    }

    /// `28 Nov 2026, 19:05` in the machine's time zone, month names in English whatever the
    /// locale (strftime in the C locale Easel runs in).
    static func dayAndTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%d %b %Y, %H:%M", &parts)
        let text = String(cString: buffer)
        // No leading zero on the day, as the title has always been written.
        return count > 0 && text.hasPrefix("0") ? String(text.dropFirst()) : text
    }

    /// The longest title, in characters; a longer first text is cut, with an ellipsis.
    public static let maxCharacters = 60
}
