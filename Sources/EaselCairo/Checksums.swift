import CEaselPNG

/// Checksums of bytes, through ISA-L's vectorised CRCs (several gigabytes a second).
package enum Checksums {
    /// `count:crc64:crc32` of `bytes`: a key under which two different files would take a
    /// collision of both CRCs (about one chance in 2^96), cheap enough to compute for every
    /// image file read.
    package static func contentKey(of bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            let crc64 = easel_crc64(buffer.baseAddress, buffer.count)
            let crc32 = easel_png_crc32(0, buffer.baseAddress, buffer.count)
            return "\(buffer.count):\(String(crc64, radix: 16)):\(String(crc32, radix: 16))"
        }
    }
}
