import EaselBatch
import EaselCairo
import EaselRender
import EaselSupport
import FoundationEssentials
import Glibc

/// Adopts the actual images of a report's failures as goldens (`easel golden accept
/// REPORT`), so that a developer reviews CI's report and accepts exactly what it showed.
///
/// A report is a file from elsewhere, so nothing in it is trusted: a golden name must be a
/// plain relative path inside the goldens folder, an image must be a regular PNG file
/// inside the report folder that decodes, and a golden that changed since the report was
/// made (it no longer shows what the report's `expected` image showed) is left alone.
public enum GoldenAcceptance {
    /// What became of one result.
    public enum Outcome: Sendable, Equatable {
        /// The golden at this path now holds the report's actual image.
        case accepted(name: String, golden: String)
        /// The golden already held the report's actual image (accepted before): nothing to do.
        case unchanged(name: String, golden: String)
        /// Left alone, and why.
        case skipped(name: String, reason: String)
    }

    /// Accepts every failed or new result of the report in `reportFolder` (or only those
    /// whose names are in `only`), writing into `goldens` (default: the folder the report
    /// names, relative to the current folder, which must then exist and be inside the current
    /// folder — never an absolute path or a `..` escape, see `reportedGoldensFolder`: a report made on CI,
    /// or in another folder, names a path that means nothing here, and no folder is made
    /// for it). The goldens folder is never the documents folder nor one holding it. With
    /// `dryRun`, says what it would do and writes nothing.
    public static func accept(
        reportFolder: URL, goldens: URL? = nil, only: Set<String>? = nil, dryRun: Bool = false
    ) throws(DocumentError) -> [Outcome] {
        let report = try GoldenReport.read(from: reportFolder)
        let reportFile = reportFolder.appendingPathComponent(GoldenReport.jsonName).path
        let goldensFolder: URL
        if let goldens {
            goldensFolder = goldens
        } else {
            goldensFolder = try reportedGoldensFolder(report.goldens, reportFile: reportFile)
        }
        if goldens == nil {
            guard FileIO.isFolder(goldensFolder.path) else {
                throw DocumentError(
                    file: reportFile,
                    kind: .io(
                        "the goldens folder the report names, \(report.goldens), is not a folder here (\(goldensFolder.standardizedFileURL.path)); give it with --goldens DIR"
                    ))
            }
        }
        // As record and verify: never the documents' own folder, nor one that holds it.
        let documentsPath = BatchExporter.realPath(URL(fileURLWithPath: report.documents).standardizedFileURL)
        let goldensPath = BatchExporter.realPath(goldensFolder.standardizedFileURL)
        if FileManager.default.fileExists(atPath: documentsPath),
            documentsPath == goldensPath || documentsPath.hasPrefix(goldensPath + "/")
        {
            throw DocumentError(
                file: goldensFolder.path,
                kind: .io(
                    "the goldens folder \(documentsPath == goldensPath ? "is" : "holds") the documents folder the report names (\(report.documents)); nothing was accepted"
                ))
        }
        // The report's images are adopted only if they are the kind the goldens are: a report
        // verified at another size (or on another background) would leave goldens of two kinds.
        if let recorded = try GoldenSettings.read(at: goldensFolder.appendingPathComponent(GoldenSettings.fileName).path)?
            .render, !recorded.size.givesSamePixels(as: report.render.size) || recorded.background != report.render.background
        {
            throw DocumentError(
                file: reportFile,
                kind: .io(
                    "the report was rendered at \(report.render.size) but the goldens were recorded at \(recorded.size)\(recorded.background != report.render.background ? " (and another background)" : ""); verify again without size options to accept, or record every golden again at the new size"
                ))
        }
        var outcomes: [Outcome] = []
        var unknown = only ?? []
        for result in report.results {
            // A result goes by any of the names the report page shows for it: the golden's
            // name (`Cards/a`), its file (`Cards/a.png`) or its document (`Cards/a.rwcard`).
            let names = [result.name, result.golden] + (result.document.map { [$0] } ?? [])
            unknown.subtract(names)
            if let only, only.isDisjoint(with: names) { continue }
            guard result.status == .failed || result.status == .new else { continue }
            outcomes.append(accept(result, reportFolder: reportFolder, goldens: goldensFolder, dryRun: dryRun))
        }
        for name in unknown.sorted() {
            outcomes.append(.skipped(name: name, reason: "the report has no result named \"\(name)\""))
        }
        return outcomes
    }

    static func accept(_ result: GoldenReport.Result, reportFolder: URL, goldens: URL, dryRun: Bool) -> Outcome {
        let name = result.name
        func skip(_ reason: String) -> Outcome { .skipped(name: name, reason: reason) }
        if let problem = nameProblem(name) { return skip(problem) }
        guard let actualPath = result.images["actual"] else { return skip("the report has no actual image for it") }
        let actualBytes: [UInt8]
        let actual: RasterImage
        do {
            actualBytes = try readReportImage(actualPath, in: reportFolder)
            actual = try PNGDecoder.decode(actualBytes)
        } catch {
            return skip("the report's actual image cannot be used: \(error)")
        }
        let golden = goldens.appendingPathComponent(name + ".png")
        let current = try? PNGDecoder.decode(FileIO.readBytes(at: golden.path, maxBytes: RenderLimits.maxImageFileBytes))
        if let current, ImageComparator.compare(actual, current, tolerance: .exact).passed {
            return .unchanged(name: name, golden: golden.path)
        }
        // Accept only over the golden the report compared with: if it changed since (or
        // appeared, for a new document), the report no longer shows what would be replaced.
        switch (result.status, current) {
        case (.new, .some):
            return skip("a golden was recorded since the report was made; verify again")
        case (.failed, let current):
            guard let expectedPath = result.images["expected"],
                let expected = try? PNGDecoder.decode(readReportImage(expectedPath, in: reportFolder))
            else { return skip("the report has no expected image to check the golden against") }
            guard let current else {
                return skip(
                    "there is no golden at \(golden.path) to replace; is \(goldens.path) the goldens folder the report was made with? (--goldens DIR)"
                )
            }
            guard ImageComparator.compare(current, expected, tolerance: .exact).passed else {
                return skip("the golden changed since the report was made; verify again")
            }
        default: break
        }
        if dryRun { return .accepted(name: name, golden: golden.path) }
        do {
            try GoldenSuite.checkInside(golden, goldens: goldens)  // before any folder is made
            try FileIO.createFolders(at: golden.deletingLastPathComponent().path)
            try AtomicFile.write(actualBytes, to: golden.path)
        } catch {
            return skip("cannot write \(golden.path): \(error.reason)")
        }
        return .accepted(name: name, golden: golden.path)
    }

    /// The goldens folder a report names, which accept writes into when not told another:
    /// a report is a file from elsewhere, so the folder must be inside the current folder
    /// (the folder the user runs accept in), as verify writes it when given a relative one.
    /// An absolute path, a `..` component, or a path that leads out through a symbolic link
    /// is refused, naming the report and the key.
    static func reportedGoldensFolder(_ path: String, reportFile: String) throws(DocumentError) -> URL {
        func refuse(_ why: String) -> DocumentError {
            DocumentError(
                file: reportFile, keyPath: "goldens",
                kind: .invalidValue(
                    "\"\(path)\" \(why); accept writes only inside the current folder unless told where with --goldens DIR"))
        }
        if path.hasPrefix("/") { throw refuse("is an absolute path") }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        if path.isEmpty || path.contains("\0") || components.contains("..") {
            throw refuse("is not a relative path inside the current folder")
        }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let folder = URL(fileURLWithPath: path, relativeTo: current)
        // Through any symbolic link on the way (one the report's own folder may hold).
        let real = BatchExporter.realPath(folder.standardizedFileURL)
        let root = BatchExporter.realPath(current.standardizedFileURL)
        guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw refuse("leads outside the current folder (to \(real))")
        }
        return URL(fileURLWithPath: path)
    }

    /// Why a golden name (given to a verifier, or from a report) cannot be used, or nil when
    /// it is a plain relative path (no `..`, no absolute path, no empty or hidden component,
    /// no NUL or backslash).
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty || name.hasPrefix("/") || name.contains("\0") || name.contains("\\") {
            return "the name \"\(name)\" is not a relative path"
        }
        for component in name.split(separator: "/", omittingEmptySubsequences: false)
        where component.isEmpty || component.hasPrefix(".") {
            return "the name \"\(name)\" leads outside the goldens folder or into a hidden one"
        }
        return nil
    }

    /// The bytes of an image the report names: a relative path to a regular file inside the
    /// report folder, symbolic links included only if they stay inside.
    static func readReportImage(_ path: String, in folder: URL) throws(DocumentError) -> [UInt8] {
        guard nameProblem(path) == nil else {
            throw DocumentError(file: path, kind: .invalidValue("not a relative path inside the report folder"))
        }
        let file = folder.appendingPathComponent(path).path
        guard let real = FolderFileResolver.realPath(file), let root = FolderFileResolver.realPath(folder.path),
            real.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        else { throw DocumentError(file: file, kind: .invalidValue("not a file inside the report folder")) }
        return try FileIO.readBytes(at: real, maxBytes: RenderLimits.maxImageFileBytes)
    }
}
