import Foundation
import Testing
@testable import EaselSupport

/// Large pixel buffers are mappings of their own, zeroed, starting on a 2 MiB boundary, with
/// their whole 2 MiB pages advised onto the kernel's huge pages (`hg` among the mapping's
/// flags in /proc/self/smaps) and given back when released; small ones are malloc's.
@Suite("Pixel memory")
struct PixelMemoryTests {
    /// The flags (`VmFlags`) of the mapping that holds `address`, from /proc/self/smaps.
    static func mappingFlags(at address: UInt) throws -> [String] {
        // Read to its end: /proc files say they are empty.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? file.close() }
        let smaps = String(decoding: try #require(try file.readToEnd()), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "VmFlags:" {
                return fields.dropFirst().map(String.init)
            }
        }
        return []
    }

    @Test func aBufferOfTwoMebibytesOrMoreIsAlignedAndAdvisedOntoHugePages() throws {
        let byteCount = 1300 * 512 * 4
        let memory = PixelMemory(byteCount: byteCount)
        let bytes = memory.bytes
        #expect(memory.isZeroed)
        #expect((0..<byteCount).allSatisfy { bytes.load(fromByteOffset: $0, as: UInt8.self) == 0 })
        bytes.initializeMemory(as: UInt8.self, repeating: 7, count: byteCount)
        let address = UInt(bitPattern: bytes)
        #expect(address % UInt(PixelMemory.hugePage) == 0)
        // A kernel built without huge pages refuses the advice, and nothing else changes.
        if FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled") {
            let flags = try Self.mappingFlags(at: address)
            #expect(flags.contains("hg"), "\(flags) at \(String(address, radix: 16))")
            // The part past the last whole 2 MiB page is not advised: no page reaches past the buffer.
            #expect(try !Self.mappingFlags(at: address + UInt(PixelMemory.hugePage)).contains("hg"))
        }
        #expect(bytes.load(fromByteOffset: byteCount - 1, as: UInt8.self) == 7)
        memory.release()
        #expect(try Self.mappingFlags(at: address).isEmpty, "given back to the kernel")
    }

    @Test func aSmallBufferIsOrdinaryMemory() throws {
        let memory = PixelMemory(byteCount: 500 * 375 * 4)
        defer { memory.release() }
        #expect(UInt(bitPattern: memory.bytes) % 16 == 0 && !memory.isZeroed)
        PixelMemory(byteCount: 0).release()
    }
}
