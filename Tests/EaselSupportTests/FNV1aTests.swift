import Testing
@testable import EaselSupport

/// FNV-1a's values are kept on disk (state folders, history files, shards): they must be
/// the published ones, for bytes and for text alike.
@Suite("FNV-1a")
struct FNV1aTests {
    @Test(arguments: [("", 0xCBF2_9CE4_8422_2325 as UInt64), ("a", 0xAF63_DC4C_8601_EC8C), ("foobar", 0x8594_4171_F739_67E8)])
    func thePublishedTestVectors(text: String, expected: UInt64) {
        #expect(FNV1a.hash(text) == expected)
        #expect(FNV1a.hash(Array(text.utf8)) == expected)
    }
}
