import Foundation

/// An IP address or a block of them (`10.0.0.0/8`, `fd00::/8`), as `--trusted-proxy` names
/// its proxies.
package struct AddressBlock: Sendable {
    let bytes: [UInt8]
    let prefixLength: Int

    /// Reads `ADDRESS` or `ADDRESS/BITS` (IPv4 or IPv6); nil for anything else.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        let length = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
        guard let length, (0...(bytes.count * 8)).contains(length) else { return nil }
        self.bytes = bytes
        prefixLength = length
    }

    /// Whether `address` (as text) falls in the block.
    package func contains(_ address: String) -> Bool {
        guard let other = Self.bytes(of: address), other.count == bytes.count else { return false }
        for bit in 0..<prefixLength {
            let mask = UInt8(0x80) >> UInt8(bit % 8)
            if bytes[bit / 8] & mask != other[bit / 8] & mask { return false }
        }
        return true
    }

    /// The address's bytes (4 or 16), or nil when it is no IP address.
    static func bytes(of address: String) -> [UInt8]? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        let bare = address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
        if inet_pton(AF_INET6, bare, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// A Host header's name without its port (`[::1]:80` gives `[::1]`).
    static func withoutPort(_ host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        guard let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon else { return host }
        return String(host[..<colon])
    }
}
