import EaselSupport
import EaselTestSupport
import Foundation
import Testing

/// The few things the CLI's modules once took from Foundation's whole runtime (path names,
/// trimming, printf formats, thread-local values), now their own so that `easel` links only
/// Foundation's essentials: each gives what Foundation gives, Foundation itself the oracle.
@Suite("Foundation's answers without Foundation's runtime")
struct FoundationStandInsTests {
    static let paths = [
        "", "/", "a", "a.png", "/tmp/a.png", "/tmp/a.tar.gz", "/tmp/", "/tmp//", "tmp/a/", "./a.png", "../a",
        "..", ".", ".profile", "/x/.profile", "a.", "a..b", "/tmp.d/file", "/tmp.d/file/", "dir/sub/card.rwcard",
        "card 1.rwcard", "ünïcødé/fïlé.PNG", "/a/b/../c.svg",
    ]

    @Test(arguments: paths)
    func pathNamesAreNSStrings(path: String) {
        let ns = path as NSString
        #expect(PathNames.lastComponent(of: path) == ns.lastPathComponent, "last component of \(path)")
        // (corelibs Foundation traps on a name without a slash here; Darwin's answer is empty.)
        #expect(PathNames.parent(of: path) == (path.contains("/") ? ns.deletingLastPathComponent : ""), "parent of \(path)")
        #expect(PathNames.extension(of: path) == ns.pathExtension, "extension of \(path)")
        #expect(PathNames.deletingExtension(of: path) == ns.deletingPathExtension, "without extension: \(path)")
        for component in ["b.png", "sub/c"] {
            #expect(PathNames.appending(component, to: path) == ns.appendingPathComponent(component), "\(path) + \(component)")
        }
    }

    @Test(arguments: [
        "", " ", "  a  ", "\ta b\t", "\u{00A0}x\u{3000}", "\n x \n", "\r\n\u{2028}y\u{2029}\u{85}", "é\u{301} ", " 🎉 ",
        "\u{200B}z", "\u{200C}z", "\u{FEFF}z", "\u{180E}z",
    ])
    func trimmingIsFoundations(text: String) {
        #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
        #expect(
            text.trimmingWhitespaceAndNewlines == text.trimmingCharacters(in: .whitespacesAndNewlines),
            "\(Array(text.unicodeScalars))")
        #expect(Substring(text).trimmingWhitespace == text.trimmingCharacters(in: .whitespaces))
    }

    @Test func printfFormatsAreFoundations() {
        let cases: [(String, [CVarArg])] = [
            ("%.1f ms", [12.345]), ("%.0f ms", [0.5]), ("%.17g", [0.1]), ("%.17g", [-1e308]), ("%g", [2.5]),
            ("\\u%04x", [UInt32(7)]), ("\\x%02X", [UInt8(0x1F)]), ("\\u{%X}", [UInt32(0x1F600)]), ("%d:%02d", [3, 7]),
            ("%%%02X", [UInt8(0x20)]), ("%.3f", [Double.nan]), ("%.1f", [-Double.infinity]), ("plain", []),
        ]
        for (format, arguments) in cases {
            #expect(String(printf: format, arguments: arguments) == String(format: format, arguments: arguments), "\(format)")
        }
        // Longer than the first buffer it tries.
        let long = String(repeating: "x", count: 300) + "%d"
        #expect(String(printf: long, 42) == String(repeating: "x", count: 300) + "42")
    }

    @Test func eachThreadHasItsOwnValue() {
        let local = ThreadLocal<[Int]> { [] }
        local.value.append(1)
        let seen = Locked<[[Int]]>([])
        let threads = (2...4).compactMap { number in
            StartedThread.start {
                local.value.append(number)
                seen.withLock { $0.append(local.value) }
            }
        }
        for thread in threads { thread.join() }
        #expect(threads.count == 3)
        #expect(local.value == [1], "this thread's value stays its own")
        #expect(seen.withLock { $0.sorted { $0[0] < $1[0] } } == [[2], [3], [4]], "each thread starts from the initial value")
    }

    @Test func aFileHeadIsItsFirstBytesAndAFifoDoesNotBlock() throws {
        let folder = TemporaryFolder()
        let file = try folder.write("{\"report\": 1}", to: "r.json")
        #expect(FileIO.head(of: file.path, count: 4) == Array("{\"re".utf8))
        #expect(FileIO.head(of: file.path, count: 100) == Array("{\"report\": 1}".utf8))
        #expect(FileIO.head(of: folder.url.appendingPathComponent("missing").path, count: 4) == nil)
        let fifo = folder.url.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileIO.head(of: fifo, count: 16) == [], "a FIFO with no writer gives nothing, at once")
        #expect(FileIO.isFolder(folder.path) && !FileIO.isFolder(file.path) && !FileIO.isFolder(fifo))
    }

    @Test func aFileManagerFailureIsGivenInTheSystemsWords() {
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: "/nonexistent-easel-folder/x")
            Issue.record("listed a folder that does not exist")
        } catch {
            #expect(FileIO.reason(error) == "No such file or directory")
        }
        struct Other: Error, CustomStringConvertible { var description: String { "other" } }
        #expect(FileIO.reason(Other()) == "other")
    }
}
