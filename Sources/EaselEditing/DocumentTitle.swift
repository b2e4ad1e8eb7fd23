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
        let day = dayAndTime(modified)
        return day.isEmpty ? fileName : day
    }

    /// `28 Nov 2026, 19:05` in the machine's time zone, the month's name in English whatever
    /// the locale (as `DateFormatter` with `en_US_POSIX` wrote it).
    static func dayAndTime(_ date: Date) -> String {
        // A time no file can have (past Int64's seconds, or not a number) has no day.
        guard var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) else { return "" }
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil, (0..<12).contains(parts.tm_mon) else { return "" }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_mday) \(months[Int(parts.tm_mon)]) \(1900 + Int(parts.tm_year)), "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min))"
    }

    /// The longest title, in characters; a longer first text is cut, with an ellipsis.
    public static let maxCharacters = 60
}
