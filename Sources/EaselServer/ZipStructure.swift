import Foundation

#if canImport(CZlib)
    import CZlib
#endif

/// The byte layout of a zip body, checked before ZIPFoundation reads it.
///
/// ZIPFoundation trusts a zip's headers: a read at an offset past the end of an in-memory
/// archive traps (its `MemoryFile.readData` forms a negative range), so one bad field in a
/// request ended `easel serve` (Easel issue 36). Its inflater reads on until the deflate
/// stream ends, whatever the entry's size says: past the body it reads memory the body
/// never filled and, at the end, spins for ever. So this walks the end record, every
/// central directory header and every local header the way ZIPFoundation will, inflates
/// every deflated entry once within its own bytes, and refuses, with the offset, any zip
/// that points outside itself, overlaps itself, or uses what Easel does not read: ZIP64,
/// several disks, encryption, methods other than stored (0) and deflate (8).
///
/// Every field is at most 32 bits and is widened to `Int` (64 bits) before any arithmetic,
/// and every bound is checked as "length fits in what is left", so no sum can overflow.
enum ZipStructure {
    private static let endRecordSignature = 0x0605_4b50
    private static let centralHeaderSignature = 0x0201_4b50
    private static let localHeaderSignature = 0x0403_4b50
    private static let zip64LocatorSignature = 0x0706_4b50
    private static let dataDescriptorSignature = 0x0807_4b50
    private static let endRecordSize = 22
    private static let centralHeaderSize = 46
    private static let localHeaderSize = 30
    /// The end record sits at most its size plus the longest comment from the end.
    private static let endRecordSearch = 22 + 0xFFFF

    /// Checks `body` as a zip ZIPFoundation can read without trusting anything in it, and
    /// that its deflated entries inflate within `limits` (the same limits `ZipBody` counts).
    static func check(_ body: [UInt8], limits: ZipBody.Limits) throws(Problem) {
        let end = try endRecord(body)
        guard end.entries <= limits.maxEntries else { throw ZipBody.tooManyEntries(limits) }
        let directory = try centralDirectory(body, end: end)
        var records: [(range: Range<Int>, index: Int)] = []
        var inflated = 0
        var position = directory.lowerBound
        for index in 0..<end.entries {
            let entry = try centralHeader(body, at: position, index: index, directory: directory)
            let record = try localRecord(body, entry: entry, index: index, directory: directory)
            records.append((record.record, index))
            if entry.method == 8 {
                let budget = min(limits.maxFileBytes, limits.maxTotalBytes - inflated)
                guard let size = try inflatedSize(body, record.data, budget: budget, entry: index) else {
                    throw ZipBody.tooLarge(limits)
                }
                inflated += size
            } else {
                inflated += record.data.count
                guard record.data.count <= limits.maxFileBytes, inflated <= limits.maxTotalBytes else {
                    throw ZipBody.tooLarge(limits)
                }
            }
            position = entry.next
        }
        guard position == directory.upperBound else {
            let more = directory.upperBound - position >= 4 && read32(body, position) == centralHeaderSignature
            throw Problem(
                .badRequest,
                more
                    ? "the zip's central directory holds more headers than the \(end.entries) its end record counts "
                        + "(another at offset \(position))"
                    : "the zip's central directory is \(directory.count) bytes (at offset \(directory.lowerBound)) "
                        + "but its \(end.entries) headers take \(position - directory.lowerBound)")
        }
        // Entries sharing bytes are how zip bombs multiply one deflate stream.
        records.sort { $0.range.lowerBound < $1.range.lowerBound }
        for (first, second) in zip(records, records.dropFirst()) where first.range.upperBound > second.range.lowerBound {
            throw Problem(
                .badRequest,
                "the zip's entries \(first.index + 1) and \(second.index + 1) overlap "
                    + "(at offsets \(first.range.lowerBound) and \(second.range.lowerBound))")
        }
    }

    // MARK: The end record

    private struct EndRecord {
        var offset: Int
        var entries: Int
        var directorySize: Int
        var directoryOffset: Int
    }

    /// The end of central directory record nearest the end, as ZIPFoundation finds it
    /// (it searches the whole body backwards; a real one is in the last 65,557 bytes).
    private static func endRecord(_ body: [UInt8]) throws(Problem) -> EndRecord {
        guard body.count >= endRecordSize else {
            throw Problem(
                .badRequest, "the zip is \(body.count) bytes: too short for an end of central directory record (22 bytes)")
        }
        let last = body.count - endRecordSize
        let lowest = max(0, last - 0xFFFF)
        var found: Int?
        for offset in stride(from: last, through: lowest, by: -1) where read32(body, offset) == endRecordSignature {
            found = offset
            break
        }
        guard let offset = found else {
            throw Problem(
                .badRequest,
                "the zip has no end of central directory record (signature 0x06054b50) in its last \(endRecordSearch) bytes")
        }
        let disk = read16(body, offset + 4), directoryDisk = read16(body, offset + 6)
        let entriesOnDisk = read16(body, offset + 8), entries = read16(body, offset + 10)
        let directorySize = read32(body, offset + 12), directoryOffset = read32(body, offset + 16)
        let commentLength = read16(body, offset + 20)
        if [disk, directoryDisk, entriesOnDisk, entries].contains(0xFFFF)
            || [directorySize, directoryOffset].contains(0xFFFF_FFFF)
        {
            throw zip64("the zip's end record at offset \(offset) has ZIP64 markers (0xFFFF or 0xFFFFFFFF)")
        }
        // ZIPFoundation looks for the locator just before the end record and, if it is
        // there, takes the ZIP64 record's 64-bit offsets instead.
        if offset >= 20, read32(body, offset - 20) == zip64LocatorSignature {
            throw zip64("the zip has a ZIP64 end of central directory locator at offset \(offset - 20)")
        }
        guard disk == 0, directoryDisk == 0, entriesOnDisk == entries else {
            throw Problem(
                .badRequest,
                "the zip spans several disks (its end record at offset \(offset) says disk \(disk), "
                    + "directory on disk \(directoryDisk), \(entriesOnDisk) of \(entries) entries here); send a single-file zip")
        }
        guard fits(offset + endRecordSize, commentLength, in: body.count) else {
            throw Problem(
                .badRequest,
                "the zip's end record at offset \(offset) has a \(commentLength)-byte comment that runs past the body's end")
        }
        return EndRecord(offset: offset, entries: entries, directorySize: directorySize, directoryOffset: directoryOffset)
    }

    /// The central directory's bytes: within the body, before the end record.
    private static func centralDirectory(_ body: [UInt8], end: EndRecord) throws(Problem) -> Range<Int> {
        guard fits(end.directoryOffset, end.directorySize, in: end.offset) else {
            throw Problem(
                .badRequest,
                "the zip's central directory (offset \(end.directoryOffset), \(end.directorySize) bytes) does not lie "
                    + "within the body before its end record at offset \(end.offset)")
        }
        return end.directoryOffset..<(end.directoryOffset + end.directorySize)
    }

    // MARK: The entries

    private struct CentralEntry {
        var offset: Int
        var flags: Int
        var method: Int
        var compressedSize: Int
        var uncompressedSize: Int
        var name: ArraySlice<UInt8>
        var localOffset: Int
        /// Where the next header starts.
        var next: Int
    }

    /// The central directory header at `offset`, whole within the directory, of a kind
    /// ZIPFoundation reads with 32-bit fields only.
    private static func centralHeader(_ body: [UInt8], at offset: Int, index: Int, directory: Range<Int>) throws(Problem)
        -> CentralEntry
    {
        let what = "the zip's central directory header \(index + 1) (at offset \(offset))"
        guard fits(offset, centralHeaderSize, in: directory.upperBound) else {
            throw Problem(.badRequest, "\(what) runs past the central directory's end at offset \(directory.upperBound)")
        }
        guard read32(body, offset) == centralHeaderSignature else {
            throw Problem(.badRequest, "\(what) does not start with the signature 0x02014b50")
        }
        let versionNeeded = read16(body, offset + 6), flags = read16(body, offset + 8), method = read16(body, offset + 10)
        let compressedSize = read32(body, offset + 20), uncompressedSize = read32(body, offset + 24)
        let nameLength = read16(body, offset + 28), extraLength = read16(body, offset + 30)
        let commentLength = read16(body, offset + 32), diskStart = read16(body, offset + 34)
        let localOffset = read32(body, offset + 42)
        let variable = nameLength + extraLength + commentLength
        guard fits(offset + centralHeaderSize, variable, in: directory.upperBound) else {
            throw Problem(
                .badRequest,
                "\(what) has a name, extra field and comment of \(variable) bytes that run past the central directory's end "
                    + "at offset \(directory.upperBound)")
        }
        let nameStart = offset + centralHeaderSize
        let extra = body[(nameStart + nameLength)..<(nameStart + nameLength + extraLength)]
        if [compressedSize, uncompressedSize, localOffset].contains(0xFFFF_FFFF) || diskStart == 0xFFFF {
            throw zip64("\(what) has ZIP64 markers (0xFFFFFFFF sizes or offset)")
        }
        // ZIPFoundation takes version 4.5 (the low byte, as it does) or a ZIP64 extra field
        // to mean 64-bit sizes and data descriptors.
        if versionNeeded & 0xFF >= 45 {
            let version = versionNeeded & 0xFF
            throw zip64("\(what) needs version \(version / 10).\(version % 10) to extract (4.5 is ZIP64)")
        }
        if let field = zip64Field(extra) {
            throw zip64("\(what) has a ZIP64 extra field at offset \(extra.startIndex + field)")
        }
        guard diskStart == 0 else {
            throw Problem(.badRequest, "\(what) says its entry starts on disk \(diskStart); send a single-file zip")
        }
        // Bit 0: encrypted; 6: strong encryption; 13: encrypted central directory.
        guard flags & 0x2041 == 0 else {
            throw Problem(.badRequest, "\(what) is of an encrypted entry (flags 0x\(String(flags, radix: 16)))")
        }
        guard method == 0 || method == 8 else {
            throw Problem(.badRequest, "\(what) uses compression method \(method): only stored (0) and deflate (8) are read")
        }
        // ZIPFoundation reads a stored entry's uncompressed size of bytes.
        guard method == 8 || compressedSize == uncompressedSize else {
            throw Problem(
                .badRequest, "\(what) is stored but says \(compressedSize) bytes stored and \(uncompressedSize) uncompressed")
        }
        return CentralEntry(
            offset: offset, flags: flags, method: method, compressedSize: compressedSize, uncompressedSize: uncompressedSize,
            name: body[nameStart..<(nameStart + nameLength)], localOffset: localOffset,
            next: nameStart + variable)
    }

    /// The local record of `entry`: its header, whose name and method match the central
    /// one, then its data and (when the central header says so) its data descriptor, all
    /// before the central directory. Returns the whole record and the data's bytes.
    private static func localRecord(_ body: [UInt8], entry: CentralEntry, index: Int, directory: Range<Int>) throws(Problem)
        -> (record: Range<Int>, data: Range<Int>)
    {
        let offset = entry.localOffset
        let what = "the zip's local header \(index + 1) (at offset \(offset), from the central header at \(entry.offset))"
        let limit = directory.lowerBound
        guard fits(offset, localHeaderSize, in: limit) else {
            throw Problem(.badRequest, "\(what) does not lie before the central directory at offset \(limit)")
        }
        guard read32(body, offset) == localHeaderSignature else {
            throw Problem(.badRequest, "\(what) does not start with the signature 0x04034b50")
        }
        let flags = read16(body, offset + 6), method = read16(body, offset + 8)
        let compressedSize = read32(body, offset + 18), uncompressedSize = read32(body, offset + 22)
        let nameLength = read16(body, offset + 26), extraLength = read16(body, offset + 28)
        // ZIPFoundation chooses how to read by the local method, and how much by the central sizes.
        guard method == entry.method else {
            throw Problem(.badRequest, "\(what) says compression method \(method), its central header \(entry.method)")
        }
        let nameStart = offset + localHeaderSize
        guard fits(nameStart, nameLength + extraLength, in: limit) else {
            throw Problem(
                .badRequest, "\(what) has a name and extra field that run past the central directory at offset \(limit)")
        }
        guard body[nameStart..<(nameStart + nameLength)].elementsEqual(entry.name) else {
            throw Problem(.badRequest, "\(what) names another file than its central header")
        }
        // Without a data descriptor (bit 3) the local sizes are the real ones.
        if flags & 0x8 == 0, compressedSize != entry.compressedSize || uncompressedSize != entry.uncompressedSize {
            throw Problem(
                .badRequest,
                "\(what) says \(compressedSize) bytes (\(uncompressedSize) uncompressed), its central header "
                    + "\(entry.compressedSize) (\(entry.uncompressedSize))")
        }
        let dataStart = nameStart + nameLength + extraLength
        guard fits(dataStart, entry.compressedSize, in: limit) else {
            throw Problem(
                .badRequest,
                "\(what) has \(entry.compressedSize) bytes of data from offset \(dataStart), past the central directory "
                    + "at offset \(limit)")
        }
        let data = dataStart..<(dataStart + entry.compressedSize)
        var recordEnd = data.upperBound
        // ZIPFoundation reads a data descriptor after the data: crc and sizes, with or without its signature.
        if entry.flags & 0x8 != 0 {
            let signed = fits(recordEnd, 4, in: limit) && read32(body, recordEnd) == dataDescriptorSignature
            let length = signed ? 16 : 12
            guard fits(recordEnd, length, in: limit) else {
                throw Problem(
                    .badRequest,
                    "\(what) has its data descriptor at offset \(recordEnd), past the central directory at offset \(limit)")
            }
            recordEnd += length
        }
        return (offset..<recordEnd, data)
    }

    // MARK: Deflate

    /// The bytes the raw deflate stream in `body[range]` inflates to, or nil past `budget`;
    /// throws if the stream is not valid or does not end within `range` (ZIPFoundation
    /// would read on past it). The output is counted, not kept.
    private static func inflatedSize(_ body: [UInt8], _ range: Range<Int>, budget: Int, entry index: Int) throws(Problem)
        -> Int?
    {
        #if canImport(CZlib)
            let what = "the zip's entry \(index + 1) (deflated data at offset \(range.lowerBound), \(range.count) bytes)"
            var stream = z_stream()
            guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw Problem(.internalServerError, "zlib could not start inflating \(what)")
            }
            defer { inflateEnd(&stream) }
            let chunk = 1 << 16
            var output = [UInt8](repeating: 0, count: chunk)
            var produced = 0
            var status = Z_OK
            body.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + range.lowerBound)
                stream.avail_in = UInt32(range.count)
                output.withUnsafeMutableBufferPointer { out in
                    // Each round fills the output or uses up the input: budget / chunk + 2 rounds suffice.
                    for _ in 0...(budget / chunk + 2) {
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(chunk)
                        status = inflate(&stream, Z_NO_FLUSH)
                        produced += chunk - Int(stream.avail_out)
                        guard status == Z_OK, produced <= budget else { return }
                    }
                }
            }
            if produced > budget { return nil }
            switch status {
            case Z_STREAM_END: return produced
            case Z_BUF_ERROR, Z_OK:
                throw Problem(.badRequest, "\(what) ends before its deflate stream does")
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                throw Problem(.badRequest, "\(what) is not valid deflate data (\(message))")
            }
        #else
            // Without zlib (Apple's platforms), ZIPFoundation inflates with Compression, which
            // reads no more than the entry's size; `ZipBody` counts the output as it inflates.
            return 0
        #endif
    }

    // MARK: Reading fields

    /// Whether `length` bytes from `start` end at or before `end` (all non-negative; no sum can overflow).
    private static func fits(_ start: Int, _ length: Int, in end: Int) -> Bool {
        start >= 0 && length >= 0 && start <= end && length <= end - start
    }

    /// The little-endian 16-bit field at `offset` (in the body: callers check with `fits`).
    private static func read16(_ body: [UInt8], _ offset: Int) -> Int {
        Int(body[offset]) | Int(body[offset + 1]) << 8
    }

    /// The little-endian 32-bit field at `offset`, as a non-negative `Int`.
    private static func read32(_ body: [UInt8], _ offset: Int) -> Int {
        read16(body, offset) | read16(body, offset + 2) << 16
    }

    /// Where in `extra` ZIPFoundation would find a ZIP64 extended information field (id 1),
    /// walking the fields as it does (and giving up, as it does, at one that overruns).
    private static func zip64Field(_ extra: ArraySlice<UInt8>) -> Int? {
        let start = extra.startIndex
        var offset = 0
        // Each step moves on by at least 4 bytes.
        while offset < extra.count - 4 {
            let id = Int(extra[start + offset]) | Int(extra[start + offset + 1]) << 8
            let size = Int(extra[start + offset + 2]) | Int(extra[start + offset + 3]) << 8
            let next = offset + 4 + size
            guard next <= extra.count else { return nil }
            if id == 1 { return offset }
            offset = next
        }
        return nil
    }

    /// The answer to a zip that uses ZIP64, where `detail` says.
    private static func zip64(_ detail: String) -> Problem {
        Problem(.badRequest, "\(detail): Easel reads zips without ZIP64 (under 4 GiB, fewer than 65,535 entries)")
    }
}
