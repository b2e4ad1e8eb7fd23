import EaselDocuments
import EaselEditing
import EaselTestSupport
import Foundation
import Glibc
import Testing

/// Nothing lost to a writer that does not take the lock (another program, a sync tool):
/// the editor compares the file with what it opened before it saves, and keeps theirs.
/// (It belongs with EaselEditingTests once the editing rewrite has landed.)
@Suite("A writer outside Easel is noticed before saving")
struct OutsideWriterTests {
    @Test func theOtherWritersVersionIsKept() throws {
        let folder = TemporaryFolder()
        let state = TemporaryFolder("easel-state")
        let url = try folder.write(DrawingEncoder.encode(Drawing()), to: "d.drawing")
        var editor = try DocumentEditor(opening: url, stateFolder: state.url)
        _ = try editor.add(ElementRequest(kind: "ellipse", documentName: "d.drawing"))
        try folder.write(DrawingEncoder.encode(Drawing(background: .black)), to: "d.drawing")
        #expect { try editor.save() } throws: { error in "\(error)".contains("the file changed on disk since easel opened it") }
        var warnings: [DocumentWarning] = []
        let kept = try Drawing(decoding: Array(Data(contentsOf: url)), file: "d.drawing", warnings: &warnings)
        #expect(kept.background == .black, "the other writer's version is kept")
    }

    /// A writer that writes just after easel's save renamed the file into place: easel read
    /// the file back and took their version for the one it saved, so its next save
    /// overwrote it. (The writer waits for the rename with inotify and writes at once, while
    /// easel is still committing the history; saved one after another, it landed before
    /// easel's old read back in four or five saves of five.)
    @Test(.serialized, arguments: 0..<5) func aWriteJustAfterASaveIsKeptToo(round: Int) throws {
        let folder = TemporaryFolder()
        let state = TemporaryFolder("easel-state")
        let name = "d\(round).drawing"
        let url = try folder.write(DrawingEncoder.encode(Drawing()), to: name)
        let theirs = DrawingEncoder.encode(Drawing(background: .black))
        var editor = try DocumentEditor(opening: url, stateFolder: state.url)
        let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        try #require(watch >= 0)
        defer { close(watch) }
        try #require(inotify_add_watch(watch, folder.url.path, UInt32(IN_MOVED_TO)) >= 0)
        let wrote = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            defer { wrote.signal() }
            var buffer = [UInt8](repeating: 0, count: 4096)
            // At most ten seconds: the save below renames the file once.
            for _ in 0..<100 {
                var ready = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 100) == 1 else { continue }
                let count = read(watch, &buffer, buffer.count)
                guard count > 0, Self.names(in: buffer[..<count]).contains(name) else { continue }
                try? Data(theirs).write(to: url)  // in place, as a plain program writes
                return
            }
        }
        _ = try editor.add(ElementRequest(kind: "ellipse", documentName: name))
        try editor.save()
        #expect(wrote.wait(timeout: .now() + 15) == .success)
        _ = try editor.add(ElementRequest(kind: "star", documentName: name))
        #expect { try editor.save() } throws: { error in "\(error)".contains("the file changed on disk since easel opened it") }
        #expect(try Array(Data(contentsOf: url)) == theirs, "the other writer's version is kept")
    }

    /// The file names of the inotify events in `bytes`.
    static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let length = bytes.withUnsafeBytes { raw in
                Int(raw.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: inotify_event.self).len)
            }
            let name = bytes[(offset + header)..<min(bytes.endIndex, offset + header + length)].prefix { $0 != 0 }
            names.append(String(decoding: name, as: UTF8.self))
            offset += header + length
        }
        return names
    }
}
