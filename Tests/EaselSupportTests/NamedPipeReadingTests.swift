import EaselSupport
import EaselTestSupport
import Foundation
import Glibc
import Testing

/// A path a user names may be a pipe (`easel add card image <(curl …)`): one with a writer is
/// read as its bytes come; a FIFO no program writes to is refused at once instead of hanging
/// the command in `open` (with a document's lock held, every editor of that document waits).
@Suite("Reading a path a user names: pipes")
struct NamedPipeReadingTests {
    @Test(.timeLimit(.minutes(1))) func aFifoNoProgramWritesToIsRefusedAtOnce() throws {
        let folder = TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("photo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        do {
            _ = try FileIO.readBytes(at: fifo, maxBytes: 1 << 20, allowingStreams: true)
            Issue.record("a FIFO with no writer gave bytes")
        } catch {
            #expect(error.file == fifo && "\(error)".contains("a pipe that no program wrote to"), "\(error)")
        }
    }

    @Test func aDeviceIsRefusedWithoutBeingRead() throws {
        for device in ["/dev/zero", "/dev/urandom"] {
            do {
                _ = try FileIO.readBytes(at: device, maxBytes: 1 << 30, allowingStreams: true)
                Issue.record("\(device) gave bytes")
            } catch {
                #expect(error.file == device && "\(error)".contains("is a device, not a file"), "\(error)")
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aPipeWithAWriterIsReadAsItsBytesCome() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let first = [UInt8](repeating: 0x41, count: 100_000), second = [UInt8](repeating: 0x42, count: 50)
        // The writer pauses between its two parts: the reader waits for the second.
        let writer = try #require(
            StartedThread.start {
                Self.writeAll(first, to: writeEnd)
                usleep(200_000)
                Self.writeAll(second, to: writeEnd)
                close(writeEnd)
            })
        let bytes = try FileIO.readBytes(at: "/dev/fd/\(readEnd)", maxBytes: 1 << 20, allowingStreams: true)
        writer.join()
        #expect(bytes == first + second)
    }

    /// Writes all of `bytes` to `fd`, stopping at an error.
    @Test(.timeLimit(.minutes(1))) func aPipeThatGoesOnPastTheLimitIsCutOffThere() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        // 64 KiB past the limit: what is left once the reader gives up fits in the pipe, so the
        // writer ends without a broken pipe.
        let writer = try #require(
            StartedThread.start {
                Self.writeAll([UInt8](repeating: 0, count: (1 << 20) + (64 << 10)), to: writeEnd)
                close(writeEnd)
            })
        #expect { try FileIO.readBytes(at: "/dev/fd/\(readEnd)", maxBytes: 1 << 20, allowingStreams: true) } throws: {
            "\($0)".contains("larger than the limit of 1048576 bytes")
        }
        writer.join()
    }

    static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        bytes.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = write(fd, buffer.baseAddress! + sent, buffer.count - sent)
                if count <= 0 { return }
                sent += count
            }
        }
    }
}
