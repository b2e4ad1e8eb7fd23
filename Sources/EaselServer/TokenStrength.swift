/// What a bearer token must be for `easel serve` to start with it: whoever guesses it may
/// read, edit and delete every document, so a short or plainly patterned one is refused.
///
/// The rule: at least 16 bytes (UTF-8) and at least 8 distinct characters. Sixteen
/// times "a", or "abababababababab", is long enough but guessable; any token made by a
/// random generator (`openssl rand -hex 16` gives 32 characters of 16 kinds) passes.
enum TokenStrength {
    /// The fewest bytes a token may have.
    static let minimumBytes = 16
    /// The fewest distinct characters a token may have.
    static let minimumDistinctCharacters = 8

    /// Why `token` is too weak to serve with, saying what is expected; nil when it is strong
    /// enough.
    static func weakness(of token: String) -> String? {
        let bytes = token.utf8.count
        let distinct = Set(token).count
        guard bytes < minimumBytes || distinct < minimumDistinctCharacters else { return nil }
        return
            "the token is too weak (\(bytes) bytes, \(distinct) distinct characters): use at least \(minimumBytes) bytes with at least \(minimumDistinctCharacters) distinct characters, such as the output of `openssl rand -hex 16`"
    }
}
