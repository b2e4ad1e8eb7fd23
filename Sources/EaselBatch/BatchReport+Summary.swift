import EaselDocuments
import EaselSupport
import FoundationEssentials
import Glibc

extension BatchReport {
    /// The run in one line, as `easel export` ends a folder export: what was rendered,
    /// skipped and failed, how fast and in how much memory; or what a dry run would do.
    /// `verbose` leaves out the hint that `--verbose` lists the warnings.
    public func summary(dryRun: Bool, verbose: Bool = false) -> String {
        let t = totals
        let memory = t.peakMemoryBytes.map { ", peak memory \($0 >> 20) MiB" } ?? ""
        let time = String(printf: "%.1f s", t.seconds)
        if dryRun {
            return "dry run: \(t.planned) of \(t.documents) documents would be rendered, \(t.skipped) are up to date"
        }
        if t.rendered == 0 && t.failed == 0 && t.notStarted == 0 {
            return "nothing to do: all \(t.documents) documents are up to date (\(time)\(memory))"
        }
        let rate = t.rendered > 0 ? String(printf: ", %.1f documents/s", t.documentsPerSecond) : ""
        let warned =
            t.withWarnings > 0
            ? " (\(t.withWarnings) with warnings\(verbose ? "" : "; --verbose lists them, as does --report"))" : ""
        return "rendered \(t.rendered)\(warned), skipped \(t.skipped), failed \(t.failed)"
            + (t.notStarted > 0 ? ", not started \(t.notStarted)" : "")
            + " of \(t.documents) documents in \(time)\(rate)\(memory)"
    }

    /// Throws unless a report may be written at `path`: a report replaces only an earlier
    /// report (a regular file that reads as one), never a document, a package's content or
    /// another file; and where nothing is yet, its folder must exist.
    public static func checkDestination(_ path: String, registry: DocumentRegistry = .standard) throws(DocumentError) {
        try checkReplacing(path, option: "--report", registry: registry) { file in
            guard let bytes = try? FileIO.readBytes(at: file, maxBytes: 1 << 30) else { return false }
            return (try? JSONDecoder().decode(BatchReport.self, from: Data(bytes))) != nil
        }
    }

    /// Throws unless the page of a report (`report merge --html`) may be written at `path`:
    /// it replaces only a page Easel wrote (`pageMarker` at its head), and where nothing is
    /// yet, its folder must exist.
    public static func checkPageDestination(_ path: String, registry: DocumentRegistry = .standard) throws(DocumentError) {
        try checkReplacing(path, option: "--html", registry: registry) { file in
            let head = FileIO.head(of: file, count: 1024) ?? []
            return String(decoding: head, as: UTF8.self).contains(pageMarker)
        }
    }

    /// What marks a page as one Easel wrote, and so one it may replace.
    static let pageMarker = #"<meta name="generator" content="easel report">"#

    private static func checkReplacing(
        _ path: String, option: String, registry: DocumentRegistry, isEarlier: (String) -> Bool
    ) throws(DocumentError) {
        let url = URL(fileURLWithPath: path)
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard FileIO.isFolder(url.deletingLastPathComponent().path) else {
                throw DocumentError(
                    file: path, kind: .io("the report's folder does not exist; create it or choose another \(option) path"))
            }
            return
        }
        guard (status.st_mode & S_IFMT) == S_IFREG, !registry.isDocument(url), isEarlier(path) else {
            throw DocumentError(
                file: path,
                kind: .io(
                    "the report would replace a file that is not an earlier report; nothing was written — choose another \(option) path"
                ))
        }
    }
}
