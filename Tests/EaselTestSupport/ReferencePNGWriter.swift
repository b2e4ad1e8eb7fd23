/// An independent, deliberately simple PNG writer for tests: every colour type and bit
/// depth, optional Adam7 interlacing, zlib "stored" blocks (no compression). It shares no
/// code with libpng, so the decoder under test is checked against a second implementation
/// of the format.
public enum ReferencePNGWriter {
    public enum ColorType: UInt8, CaseIterable, Sendable {
        case grey = 0
        case rgb = 2
        case palette = 3
        case greyAlpha = 4
        case rgba = 6

        public var channels: Int {
            switch self {
            case .grey, .palette: return 1
            case .greyAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }

        public var allowedBitDepths: [Int] {
            switch self {
            case .grey: return [1, 2, 4, 8, 16]
            case .palette: return [1, 2, 4, 8]
            default: return [8, 16]
            }
        }
    }

    /// `samples(x, y)` gives the channel values of a pixel (each within the bit depth; a
    /// palette index for `.palette`).
    public static func encode(
        width: Int, height: Int, colorType: ColorType, bitDepth: Int, interlaced: Bool = false,
        palette: [(UInt8, UInt8, UInt8)] = [], transparency: [UInt8]? = nil,
        samples: (Int, Int) -> [Int]
    ) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        png += chunk("IHDR", header)
        if colorType == .palette {
            png += chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] })
        }
        if let transparency { png += chunk("tRNS", transparency) }

        var raw: [UInt8] = []
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: height, by: pass.dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys {
                raw.append(0)  // filter: none
                var bits = BitPacker()
                for x in xs {
                    for value in samples(x, y) { bits.append(value, depth: bitDepth) }
                }
                raw += bits.finish()
            }
        }
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    struct BitPacker {
        var bytes: [UInt8] = []
        var current: UInt8 = 0
        var used = 0

        mutating func append(_ value: Int, depth: Int) {
            if depth == 16 {
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
            } else if depth == 8 {
                bytes.append(UInt8(value))
            } else {
                current |= UInt8(value) << (8 - depth - used)
                used += depth
                if used == 8 {
                    bytes.append(current)
                    current = 0
                    used = 0
                }
            }
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(current) }
            return bytes
        }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }
}
