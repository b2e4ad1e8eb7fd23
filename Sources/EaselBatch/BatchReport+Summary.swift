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
    /// report (a regular file starting with `{` that is not a document), never a document or
    /// another file; and where nothing is yet, its folder must exist.
    public static func checkDestination(_ path: String, registry: DocumentRegistry = .standard) throws(DocumentError) {
        let url = URL(fileURLWithPath: path)
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard FileIO.isFolder(url.deletingLastPathComponent().path) else {
                throw DocumentError(
                    file: path, kind: .io("the report's folder does not exist; create it or choose another --report path"))
            }
            return
        }
        let head = FileIO.head(of: path, count: 16) ?? []
        let isReport = (status.st_mode & S_IFMT) == S_IFREG && head.first == UInt8(ascii: "{")
        guard isReport, !registry.isDocument(url) else {
            throw DocumentError(
                file: path,
                kind: .io(
                    "the report would replace a file that is not an earlier report; nothing was written — choose another --report path"
                ))
        }
    }
}
