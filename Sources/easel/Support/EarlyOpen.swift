import Foundation
import EaselCairo
import EaselDocuments
import EaselRender
import EaselSupport

/// The document of `easel export DOC ...`, opened — then lowered to a scene, its images
/// decoded — on another core while the command line is parsed. Parsing takes several milliseconds in a new
/// process (the Swift runtime resolves every option's types on first use), time in which
/// a single export would otherwise do nothing else.
///
/// It is a guess made before parsing: the first argument after `export` that names a
/// document file. The export takes the result only when the path it finally opens is that
/// one; otherwise it opens the document as always. The work is what the export would do
/// anyway (reading the same file through the same registry, lowering it as
/// `DocumentRenderer.scene` does, its images decoded into the process's shared cache), only
/// earlier, and never on one core (`EASEL_THREADS=1`), where
/// it would only compete with the parsing.
enum EarlyOpen {
    private struct State {
        var path: String?
        var result: Result<LocatedDocument, any Error>?
        /// The document's scene with its own background, once lowered.
        var scene: Scene?
    }

    private static let state = Locked(State())
    private static let opened = DispatchSemaphore(value: 0)
    private static let lowered = DispatchSemaphore(value: 0)

    /// Starts opening the document `arguments` (the process's, program name first) name,
    /// when they are a single export's.
    static func start(arguments: [String]) {
        guard arguments.count > 2, arguments[1] == "export", EncoderParallelism.threads() > 1,
            let path = arguments.dropFirst(2).first(where: { !$0.hasPrefix("-") && $0 != "-" }),
            DocumentRegistry.standard.isDocument(URL(fileURLWithPath: path))
        else { return }
        // Another background asked for: the export lowers the document itself.
        let lowerEarly = !arguments.contains { $0 == "--background" || $0.hasPrefix("--background=") }
        state.withLock { $0.path = path }
        // A thread of its own: Dispatch's threads are shared with Swift's tasks.
        Thread.detachNewThread {
            let result = Result { try DocumentRegistry.standard.open(URL(fileURLWithPath: path)) }
            state.withLock { $0.result = result }
            opened.signal()
            // Then its images, into the shared cache, on every idle core (here, not inside
            // the lowering's own prefetch, which runs beside the texts' layout and so decodes
            // on one core), then its scene, while the export checks its output. The export
            // takes the scene unless it asks for another background; a lowering that fails is
            // left for the export to do again, and to report.
            if case .success(let located) = result {
                ImageLoader().prefetch(
                    located.document.referencedFileNames, inFolder: located.resourceFolder, threads: EncoderParallelism.threads())
                if lowerEarly, let scene = try? DocumentRenderer.scene(for: located) {
                    state.withLock { $0.scene = scene }
                }
            }
            lowered.signal()
        }
    }

    /// What opening `path` early gave (waiting for the opening, not for the scene), once;
    /// nil when nothing was opened early for that path.
    static func take(_ path: String) -> Result<LocatedDocument, any Error>? {
        // The path is set before the thread starts, and the thread signals exactly once.
        guard state.withLock({ $0.path }) == path else { return nil }
        opened.wait()
        return state.withLock { state in
            defer { state.result = nil }
            return state.result
        }
    }

    /// The scene of the document `take(path)` gave, lowered early with the document's own
    /// background (waiting for the lowering), once; nil when there is none.
    static func takeScene(_ path: String) -> Scene? {
        guard state.withLock({ $0.path }) == path else { return nil }
        lowered.wait()
        return state.withLock { state in
            defer { (state.path, state.scene) = (nil, nil) }
            return state.scene
        }
    }
}
