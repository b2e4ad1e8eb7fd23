import EaselDocuments
import EaselServer
import EaselTestSupport
import Foundation
import Testing

/// Zip bodies are checked byte by byte before ZIPFoundation reads them (Easel issue 36):
/// a zip whose headers point outside itself is refused with a 400 that names the offset,
/// and never traps inside ZIPFoundation, which would end `easel serve`.
@Suite("Zip bodies are checked before they are read")
struct ZipValidationTests {
    static let limits = ZipBody.Limits(maxEntries: 16, maxFileBytes: 1 << 20, maxTotalBytes: 2 << 20)

    /// Reads `zip` as `POST /api/render` does: the problem, or nil when it reads.
    static func problem(_ zip: [UInt8], limits: ZipBody.Limits = limits) -> Problem? {
        do {
            _ = try ZipBody.read(zip, registry: .standard, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidZipReadsEveryEntryExactly() throws {
        let zip = HandZip.sample()
        let contents = try ZipBody.read(zip.bytes, registry: .standard, limits: Self.limits)
        #expect(contents.documentPath == "card.rwcard")
        #expect(contents.document == .regularFile(HandZip.card))
        #expect(contents.images == ["photo.png": HandZip.text, "streamed.png": HandZip.text])
    }

    /// The red team's body: a valid zip whose end record puts the central directory at 0x7FFFFFFF.
    @Test func aCentralDirectoryPastTheBodyIsRefusedWithItsOffset() {
        var zip = HandZip.sample()
        zip.write32(0x7FFF_FFFF, at: zip.endRecord + 16)
        let problem = Self.problem(zip.bytes)
        #expect(problem?.status == .badRequest)
        #expect(problem?.detail.contains("central directory (offset 2147483647") == true, "\(String(describing: problem))")
    }

    /// Each case breaks one thing ZIPFoundation would trust; the problem names it.
    @Test(arguments: HandZip.Breakage.all) func aBrokenHeaderIsRefusedSayingWhat(_ breakage: HandZip.Breakage) {
        var zip = HandZip.sample()
        breakage.apply(&zip)
        let problem = Self.problem(zip.bytes)
        #expect(problem?.status.code == breakage.status, "\(breakage.name): \(String(describing: problem))")
        #expect(problem?.detail.contains(breakage.words) == true, "\(breakage.name): \(String(describing: problem))")
    }

    /// 2,000 deterministic mutations of the header bytes: every one reads or is refused with
    /// a reason. A trap inside ZIPFoundation would end this process: that is the failure.
    @Test func everyMutationOfTheHeadersReadsOrIsRefused() {
        let original = HandZip.sample()
        var random = SplitMix64(seed: 0x5EED_0036)
        var read = 0, refused = 0
        for _ in 0..<2000 {
            var zip = original
            let runs = 1 + random.below(4)
            // Half the time a run of bytes (a whole field set to 0xFFFFFFFF, say), half scattered bytes.
            let contiguous = random.below(2) == 0
            var position = original.headerBytes[random.below(original.headerBytes.count)]
            for step in 0..<runs {
                if !contiguous || step == 0 {
                    position = original.headerBytes[random.below(original.headerBytes.count)]
                } else {
                    position = min(position + 1, zip.bytes.count - 1)
                }
                let boundary: [UInt8] = [0x00, 0xFF, 0x7F, 0x80]
                zip.bytes[position] =
                    random.below(2) == 0 ? UInt8(truncatingIfNeeded: random.next()) : boundary[random.below(boundary.count)]
            }
            if let problem = Self.problem(zip.bytes) {
                refused += 1
                #expect([400, 413].contains(problem.status.code) && !problem.detail.isEmpty, "\(problem)")
            } else {
                read += 1
            }
        }
        // Both outcomes happen, so the mutations neither all miss nor all break the zip.
        #expect(read > 100 && refused > 100, "\(read) read, \(refused) refused")
    }

    /// Over HTTP: the red team's body is a 400, and the server still renders afterwards.
    @Test func theServerAnswersTheRedTeamsZipAndRendersAfterwards() async throws {
        let server = try await LiveServer.start(try ServerFixtures.samples())
        defer { Task { try await server.stop() } }
        let card = try [UInt8](Data(contentsOf: server.folder.file(ServerFixtures.card)))
        var zip = HandZip.make([.init(name: "card.rwcard", content: card)])
        zip.write32(0x7FFF_FFFF, at: zip.endRecord + 16)
        let refused = try await server.request(
            "POST", "/api/render", headers: ["Content-Type": "application/zip"], body: zip.bytes)
        #expect(refused.status == 400, "\(refused.text)")
        #expect((refused.json["detail"] as? String)?.contains("2147483647") == true, "\(refused.text)")
        let rendered = try await server.request(
            "POST", "/api/render?preset=thumbnail", headers: ["Content-Type": "application/zip"],
            body: HandZip.make([.init(name: "card.rwcard", content: card, deflate: true)]).bytes)
        #expect(rendered.status == 200, "\(rendered.text)")
        #expect(rendered.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}

/// Zips written byte by byte, so a test knows where every header field is.
struct HandZip {
    var bytes: [UInt8]
    /// Offsets of the local headers, the central directory headers and the end record.
    var localHeaders: [Int] = []
    var centralHeaders: [Int] = []
    var endRecord = 0
    /// Every offset that is part of a header, a data descriptor or the end record (not data).
    var headerBytes: [Int] = []

    /// One entry: its name and bytes, whether they are deflated, and whether its sizes
    /// follow its data in a data descriptor (as streaming writers do).
    struct Entry {
        var name: String
        var content: [UInt8]
        var deflate = false
        var descriptor = false
        /// When set, the entry is instead a bomb: one zero and this many copies of the
        /// longest match (258 zeros), deflated by `zeros(matches:)`.
        var bomb: Int? = nil
    }

    static let card = Array(#"{"format": "not read here"}"#.utf8)
    static let text = Array(String(repeating: "easel easel easel draws cards and drawings; easel easel easel.\n", count: 3).utf8)
    /// `text` deflated by zlib (level 9, raw).
    static let deflatedText: [UInt8] = [
        0x4B, 0x4D, 0x2C, 0x4E, 0xCD, 0x51, 0x48, 0x45, 0x22, 0x53, 0x8A, 0x12, 0xCB, 0x8B, 0x15, 0x92, 0x13, 0x8B, 0x52, 0x8A,
        0x15, 0x12, 0xF3, 0x52, 0xC0, 0xFC, 0xCC, 0xBC, 0xF4, 0x62, 0x6B, 0x14, 0x55, 0x60, 0x52, 0x8F, 0x2B, 0x75, 0x40, 0xB5,
        0x03, 0x00,
    ]

    /// A card, a folder, a deflated image and a deflated image with a data descriptor.
    static func sample() -> HandZip {
        make([
            .init(name: "card.rwcard", content: card), .init(name: "images/", content: []),
            .init(name: "photo.png", content: text, deflate: true),
            .init(name: "streamed.png", content: text, deflate: true, descriptor: true),
        ])
    }

    /// The zip of `entries`: local records, then the central directory, then the end record.
    static func make(_ entries: [Entry]) -> HandZip {
        var zip = HandZip(bytes: [])
        var central: [UInt8] = []
        var centralOffsets: [Int] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let deflated = entry.deflate || entry.bomb != nil
            let content = entry.bomb.map { [UInt8](repeating: 0, count: 1 + 258 * $0) } ?? entry.content
            let stored: [UInt8]
            if let bomb = entry.bomb {
                stored = zeros(matches: bomb)
            } else if !entry.deflate {
                stored = content
            } else {
                stored = content == text ? deflatedText : deflateStored(content)
            }
            let sizes = le32(crc32(content)) + le32(UInt32(stored.count)) + le32(UInt32(content.count))
            let flags: UInt16 = 0x0800 | (entry.descriptor ? 0x8 : 0)
            let common = le16(20) + le16(flags) + le16(deflated ? 8 : 0) + le16(0x6000) + le16(0x5A21)
            let localOffset = zip.bytes.count
            zip.localHeaders.append(localOffset)
            zip.bytes += le32(0x0403_4b50) + common + (entry.descriptor ? [UInt8](repeating: 0, count: 12) : sizes)
            zip.bytes += le16(UInt16(name.count)) + le16(0) + name
            zip.headerBytes += localOffset..<zip.bytes.count
            zip.bytes += stored
            if entry.descriptor {
                zip.headerBytes += zip.bytes.count..<(zip.bytes.count + 16)
                zip.bytes += le32(0x0807_4b50) + sizes
            }
            let mode: UInt32 = entry.name.hasSuffix("/") ? 0o040755 : 0o100644
            centralOffsets.append(central.count)
            central += le32(0x0201_4b50) + le16(0x0314) + common + sizes + le16(UInt16(name.count)) + le16(0) + le16(0)
            central += le16(0) + le16(0) + le32(mode << 16) + le32(UInt32(localOffset)) + name
        }
        let directoryOffset = zip.bytes.count
        zip.centralHeaders = centralOffsets.map { $0 + directoryOffset }
        zip.bytes += central
        zip.endRecord = zip.bytes.count
        zip.bytes += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        zip.bytes += le32(UInt32(central.count)) + le32(UInt32(directoryOffset)) + le16(0)
        zip.headerBytes += directoryOffset..<zip.bytes.count
        return zip
    }

    mutating func write16(_ value: Int, at offset: Int) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8((value >> 8) & 0xFF)
    }

    mutating func write32(_ value: Int, at offset: Int) {
        write16(value & 0xFFFF, at: offset)
        write16((value >> 16) & 0xFFFF, at: offset + 2)
    }

    func read32(at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    /// A deflate stream of one final stored block holding `bytes` (at most 65,535).
    static func deflateStored(_ bytes: [UInt8]) -> [UInt8] {
        let count = UInt16(bytes.count)
        return [0x01] + le16(count) + le16(~count) + bytes
    }

    /// A deflate stream (one fixed-Huffman block) of one zero and `matches` copies of the
    /// longest match at distance 1: 1 + 258 × `matches` zeros in about 1.6 bytes a match.
    static func zeros(matches: Int) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = 0, count = 0
        // Deflate packs bits from the least significant; Huffman codes go most significant bit first.
        func put(_ value: Int, bits: Int) {
            for bit in 0..<bits {
                buffer |= ((value >> bit) & 1) << count
                count += 1
                if count == 8 {
                    out.append(UInt8(buffer))
                    (buffer, count) = (0, 0)
                }
            }
        }
        func code(_ value: Int, bits: Int) { put((0..<bits).reduce(0) { $0 << 1 | (value >> $1) & 1 }, bits: bits) }
        put(1, bits: 1)  // the final block
        put(1, bits: 2)  // fixed Huffman codes
        code(0x30, bits: 8)  // literal 0
        for _ in 0..<matches {
            code(0xC5, bits: 8)  // length 258 (symbol 285)
            code(0, bits: 5)  // distance 1
        }
        code(0, bits: 7)  // end of block
        if count > 0 { out.append(UInt8(buffer)) }
        return out
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }

    /// The zip CRC-32: the IEEE CRC PNG chunks use too.
    static func crc32(_ bytes: [UInt8]) -> UInt32 { ReferencePNGWriter.crc32(bytes) }

    /// One way to break the sample zip, the status it gets and words its problem must say.
    struct Breakage: CustomTestStringConvertible, Sendable {
        var name: String
        var status: Int
        var words: String
        var apply: @Sendable (inout HandZip) -> Void
        var testDescription: String { name }

        static let all: [Breakage] = [
            Breakage(name: "ZIP64 entry count", status: 400, words: "ZIP64") { $0.write16(0xFFFF, at: $0.endRecord + 10) },
            Breakage(name: "ZIP64 locator", status: 400, words: "ZIP64 end of central directory locator at offset") {
                // The locator's signature in the last central header's 20 bytes before the end record.
                $0.write32(0x0706_4b50, at: $0.endRecord - 20)
            },
            Breakage(name: "ZIP64 local offset", status: 400, words: "ZIP64") { $0.write32(-1, at: $0.centralHeaders[0] + 42) },
            Breakage(name: "several disks", status: 400, words: "spans several disks") { $0.write16(1, at: $0.endRecord + 4) },
            Breakage(name: "local header past the body", status: 400, words: "local header 3 (at offset 2147483647") {
                $0.write32(0x7FFF_FFFF, at: $0.centralHeaders[2] + 42)
            },
            Breakage(name: "local header in the middle of data", status: 400, words: "signature 0x04034b50") {
                $0.write32($0.read32(at: $0.centralHeaders[2] + 42) + 40, at: $0.centralHeaders[2] + 42)
            },
            Breakage(name: "compressed size past the directory", status: 400, words: "past the central directory") {
                $0.write32(0x00FF_FFFF, at: $0.centralHeaders[2] + 20)
                $0.write32(0x00FF_FFFF, at: $0.localHeaders[2] + 18)
            },
            Breakage(name: "name length past the directory", status: 400, words: "run past the central directory's end") {
                $0.write16(0xFFFF, at: $0.centralHeaders[3] + 28)
            },
            Breakage(name: "more headers than counted", status: 400, words: "more headers than the 3") {
                $0.write16(3, at: $0.endRecord + 8)
                $0.write16(3, at: $0.endRecord + 10)
            },
            Breakage(name: "a method ZIPFoundation cannot read", status: 400, words: "compression method 12") {
                $0.write16(12, at: $0.centralHeaders[2] + 10)
            },
            Breakage(name: "local method differs", status: 400, words: "says compression method 0") {
                $0.write16(0, at: $0.localHeaders[2] + 8)
            },
            Breakage(name: "local name differs", status: 400, words: "names another file") {
                $0.bytes[$0.localHeaders[2] + 30] = UInt8(ascii: "q")
            },
            Breakage(name: "encrypted", status: 400, words: "encrypted") { $0.write16(0x0801, at: $0.centralHeaders[2] + 8) },
            Breakage(name: "two entries over one record", status: 400, words: "entries 1 and 2 overlap (at offsets 0 and 0)") {
                // Both central headers point at the first record, as an overlapping bomb's do.
                $0 = HandZip.make([.init(name: "card.rwcard", content: HandZip.card), .init(name: "card.rwcard", content: [])])
                $0.write32(0, at: $0.centralHeaders[1] + 42)
                $0.write32(HandZip.card.count, at: $0.centralHeaders[1] + 20)
                $0.write32(HandZip.card.count, at: $0.centralHeaders[1] + 24)
            },
            // A stored deflate block longer than the bytes left: ZIPFoundation inflated the
            // memory after the body and then spun for ever at its end.
            Breakage(name: "deflate stream that runs off the end", status: 400, words: "ends before its deflate stream does") {
                let data = $0.localHeaders[2] + 30 + 9
                $0.bytes.replaceSubrange(data..<(data + 5), with: [0x00, 0xFF, 0xFF, 0x00, 0x00])
            },
            Breakage(name: "data descriptor past the directory", status: 400, words: "data descriptor at offset") {
                // 8 more bytes of data leave 8 of the descriptor's 12 before the central directory.
                $0.write32($0.read32(at: $0.centralHeaders[3] + 20) + 8, at: $0.centralHeaders[3] + 20)
            },
            Breakage(name: "inflating past the file limit", status: 413, words: "inflates past 1 MiB a file") {
                $0 = HandZip.make([
                    .init(name: "card.rwcard", content: HandZip.card), .init(name: "zeros", content: [], bomb: 4200),
                ])
            },
        ]
    }
}

/// A small, seeded pseudo-random generator (SplitMix64), so every run mutates alike.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
