import FoundationEssentials
import Dispatch
import EaselCairo
import EaselDocuments
import EaselRender
import EaselSupport

/// The document of `easel export DOC ...`, opened — then lowered to a scene, its images
/// decoded — on another core while the command line is parsed. Parsing takes several
/// milliseconds in a new process (the Swift runtime resolves every option's types on first
/// use), time in which a single export would otherwise do nothing else.
///
/// It is a guess made before parsing: the first argument after `export` that names a
/// document file. The export takes the result only when the path it finally opens is that
/// one; otherwise it opens the document as always. The work is what the export would do
/// anyway (reading the same file through the same registry, lowering it as
/// `DocumentRenderer.scene` does, its images decoded into the process's shared cache), only
/// earlier, and never on one core (`EASEL_THREADS=1`), where it would only compete with the
/// parsing.
enum EarlyOpen {
    /// What was opened early, handed to the export that takes it.
    struct Opened {
        private let opening: Opening
        private let lowering: Lowering

        fileprivate init(opening: Opening, lowering: Lowering) {
            self.opening = opening
            self.lowering = lowering
        }

        /// The document, or the error opening it threw.
        func document() throws -> LocatedDocument {
            switch opening {
            case .opened(let located): return located
            case .failed(let error): throw error
            }
        }

        /// The document's scene with its own background, waiting for the lowering; nil
        /// when it was not lowered (it failed, or another background was asked for), was
        /// taken already, or had its photos decoded for other options than `options` (a
        /// guess at the default PNG that the parsed options did not confirm). Only the export
        /// that took `document` can ask, so a scene never outlives its document: a later
        /// export (`--watch`) opens and lowers anew.
        func scene(for options: RenderOptions) -> Scene? {
            guard let lowered = lowering.take() else { return nil }
            guard let planned = lowered.drawnFor else { return lowered.scene }
            let same =
                options.format == planned.format && options.area == nil && options.imageFilter == planned.imageFilter
                && options.size.givesSamePixels(as: planned.size)
            return same ? lowered.scene : nil
        }
    }

    /// The scene the thread lowers, taken at most once.
    fileprivate final class Lowering: @unchecked Sendable {
        /// The document's texts, which the taker lays out too while it waits.
        let texts = TextLayoutAhead()
        private let done = DispatchSemaphore(value: 0)
        private let state = Locked<(scene: Scene?, drawnFor: RenderOptions?, taken: Bool)>((nil, nil, false))

        /// The scene, and the options its photos were decoded for (nil: decoded whole).
        func finish(_ scene: Scene?, drawnFor options: RenderOptions?) {
            state.withLock { ($0.scene, $0.drawnFor) = (scene, options) }
            done.signal()
        }

        func take() -> (scene: Scene, drawnFor: RenderOptions?)? {
            // The first caller waits (the thread signals exactly once); any later one gets nil.
            guard
                state.withLock({ state in
                    defer { state.taken = true }
                    return !state.taken
                })
            else { return nil }
            // The arguments are parsed: this core lays out the texts the lowering has not
            // reached yet, rather than wait for it to.
            texts.layOut()
            done.wait()
            return state.withLock { state in
                defer { state.scene = nil }
                return state.scene.map { ($0, state.drawnFor) }
            }
        }
    }

    /// The document, or why it could not be opened. (Not a `Result`: making that generic
    /// type's metadata checks its `Error` requirement by scanning all 8,800 of the process's
    /// protocol conformances, 0.1 ms on the opening's way.)
    fileprivate enum Opening {
        case opened(LocatedDocument)
        case failed(any Error)
    }

    private struct State {
        var path: String?
        var opening: Opening?
    }

    private static let state = Locked(State())
    private static let opened = DispatchSemaphore(value: 0)
    private static let lowering = Lowering()

    /// Starts opening the document `arguments` (the process's, program name first) name,
    /// when they are a single export's.
    static func start(arguments: [String]) {
        // Decided by the paths' names, without URLs: this runs before anything else.
        let registry = DocumentRegistry.standard
        guard arguments.count > 2, arguments[1] == "export",
            let path = arguments.dropFirst(2).first(where: { !$0.hasPrefix("-") && $0 != "-" }),
            registry.isDocument(path: path)
        else { return }
        guard EncoderParallelism.threads() > 1 else { return }
        // A time limit applies from the decoding on, and is known only once parsed: such an
        // export opens and lowers its document itself, under its deadline.
        guard !arguments.contains(where: { $0 == "--timeout" || $0.hasPrefix("--timeout=") }) else { return }
        // Another background asked for, or several documents (a batch, whose workers would
        // only be slowed): the export lowers its documents itself.
        let documents = arguments.dropFirst(2).filter { registry.isDocument(path: $0) }
        let lowerEarly =
            documents.count == 1 && !arguments.contains { $0 == "--background" || $0.hasPrefix("--background=") }
        // The photos are decoded at the size they are drawn at only for what an export with
        // no options but its output makes (the parsed options confirm it, else the export
        // lowers again); with any other option they are decoded whole, as any export can use.
        let drawnFor = plainExportFormat(Array(arguments.dropFirst(2)), document: path).map { RenderOptions(format: $0) }
        // A thread of its own (Dispatch's threads are shared with Swift's tasks), started on
        // the other core: on the parser's own it would wait for the parsing to yield.
        let thread = StartedThread.start {
            let opening: Opening
            do {
                opening = .opened(try DocumentRegistry.standard.open(URL(fileURLWithPath: path)))
            } catch {
                opening = .failed(error)
            }
            state.withLock { $0.opening = opening }
            opened.signal()
            // Then its scene, while the export checks its output: the lowering decodes the
            // images on every idle core, its texts laid out among them. The export takes the
            // scene unless it asks for another background (then only the images are decoded
            // here, into the shared cache, for the export's own lowering); a lowering that
            // fails is left for the export to do again, and to report.
            var scene: Scene? = nil
            if case .opened(let located) = opening {
                if lowerEarly {
                    scene = try? DocumentRenderer.scene(for: located, drawnFor: drawnFor, textsAhead: lowering.texts)
                } else {
                    ImageLoader().prefetch(
                        located.document.referencedFileNames, inFolder: located.resourceFolder,
                        threads: EncoderParallelism.threads())
                }
            }
            lowering.finish(scene, drawnFor: drawnFor)
        }
        // Taken by the export only once the thread runs: without one, it opens the document itself.
        guard let thread else { return }
        state.withLock { $0.path = path }
        thread.detach()
    }

    /// The output's format when `arguments` (after `export`) are the document and an output
    /// alone: `DOC --out X.png`, `DOC -o X.svg` or `DOC --out=X.pdf`; nil for anything else.
    static func plainExportFormat(_ arguments: [String], document: String) -> OutputFormat? {
        var rest = arguments
        guard let index = rest.firstIndex(of: document) else { return nil }
        rest.remove(at: index)
        let output: String
        switch rest.count {
        case 1 where rest[0].hasPrefix("--out="): output = String(rest[0].dropFirst("--out=".count))
        case 2 where rest[0] == "--out" || rest[0] == "-o": output = rest[1]
        default: return nil
        }
        let name = output.lowercased()
        return name.hasSuffix(".png") ? .png : name.hasSuffix(".svg") ? .svg : name.hasSuffix(".pdf") ? .pdf : nil
    }

    /// What opening `path` early gave (waiting for the opening, not for the scene), once;
    /// nil when nothing was opened early for that path, or it was taken already.
    static func take(_ path: String) -> Opened? {
        // The path is set (on this thread) once the thread started, and it signals exactly once.
        guard state.withLock({ $0.path }) == path else { return nil }
        opened.wait()
        return state.withLock { state in
            defer { (state.path, state.opening) = (nil, nil) }
            return state.opening.map { Opened(opening: $0, lowering: lowering) }
        }
    }
}
