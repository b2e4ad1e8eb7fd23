extension StringProtocol {
    /// Without the spaces and tabs at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes (tab, Unicode's space separators and
    /// the zero-width space).
    package var trimmingWhitespace: String { trimmingScalars(Self.isSpace) }

    /// Without white space and line breaks at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` removes (the spaces above, and
    /// U+000A–000D, U+0085, U+2028 and U+2029).
    package var trimmingWhitespaceAndNewlines: String {
        trimmingScalars { Self.isSpace($0) || (0x0A...0x0D).contains($0.value) || [0x85, 0x2028, 0x2029].contains($0.value) }
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }

    private func trimmingScalars(_ trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !trimmed($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
