/// FNV-1a, 64 bits: a short, stable, non-cryptographic hash. Easel keeps its values on disk
/// (state-folder names, history files' `documentHash`, which shard a document belongs to),
/// so it must never change.
package enum FNV1a {
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The hash of `bytes`.
    package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value = offsetBasis
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* prime
        }
        return value
    }

    /// The hash of `bytes`.
    package static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBufferPointer { hash($0) } }

    /// The hash of `text`'s UTF-8 bytes.
    package static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash($0) }
    }
}
