import Foundation
import Testing
import EaselSupport
import EaselTestSupport

/// `FileIO.fileContains` reads in pieces of 256 KiB: a name is found wherever it sits,
/// across the seams too, and only regular files within the limit are read.
@Suite("Looking for a name in a file, piece by piece")
struct FileContainsTests {
    static let piece = 1 << 18
    let needle = Array("speed.png".utf8)

    /// A file of `size` bytes of JSON-like filler (full of the needle's first letter), with
    /// the needle at `offset` when given.
    func file(size: Int, needleAt offset: Int?, in folder: TemporaryFolder, name: String) throws -> String {
        var bytes = [UInt8](repeating: UInt8(ascii: "s"), count: size)
        for i in stride(from: 0, to: size, by: 7) { bytes[i] = UInt8(ascii: "p") }
        if let offset { bytes.replaceSubrange(offset..<offset + needle.count, with: needle) }
        let url = folder.file(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test func findsTheNameAnywhereAndAcrossEverySeam() throws {
        let folder = TemporaryFolder()
        let size = 3 * Self.piece + 1000
        var offsets = [0, size - needle.count, 12345]
        // Straddling the first and second seams by every split of the name.
        for seam in [Self.piece, 2 * Self.piece] {
            for before in 1..<needle.count { offsets.append(seam - before) }
        }
        for (index, offset) in offsets.enumerated() {
            let path = try file(size: size, needleAt: offset, in: folder, name: "with-\(index)")
            #expect(try FileIO.fileContains(at: path, needle, maxBytes: 1 << 30), "at \(offset)")
        }
        let without = try file(size: size, needleAt: nil, in: folder, name: "without")
        #expect(try !FileIO.fileContains(at: without, needle, maxBytes: 1 << 30))
        // All but the last byte of the name, at the very end: not found.
        let cut = try file(size: size, needleAt: nil, in: folder, name: "cut")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: cut))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(needle.dropLast()))
        try handle.close()
        #expect(try !FileIO.fileContains(at: cut, needle, maxBytes: 1 << 30))
        let empty = try file(size: 0, needleAt: nil, in: folder, name: "empty")
        #expect(try !FileIO.fileContains(at: empty, needle, maxBytes: 1 << 30))
    }

    @Test func refusesWhatIsNotAReadableRegularFileWithinTheLimit() throws {
        let folder = TemporaryFolder()
        let big = try file(size: 2 * Self.piece, needleAt: nil, in: folder, name: "big")
        #expect(throws: DocumentError.self) { try FileIO.fileContains(at: big, needle, maxBytes: Self.piece) }
        // A FIFO planted in a folder is refused at once, never waited on.
        let fifo = folder.file("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: DocumentError.self) { try FileIO.fileContains(at: fifo, needle, maxBytes: 1 << 30) }
        #expect(throws: DocumentError.self) { try FileIO.fileContains(at: folder.file("missing").path, needle, maxBytes: 1) }
        #expect(throws: DocumentError.self) { try FileIO.fileContains(at: folder.url.path, needle, maxBytes: 1 << 30) }
    }
}
