/// Bounds the JSON parser enforces while reading, so that no input can make it recurse,
/// loop or allocate without limit. The defaults are documented in docs/limits.md.
package struct JSONLimits: Sendable, Equatable {
    /// The deepest nesting of arrays and objects.
    package var maxDepth: Int
    /// The longest string, in bytes of UTF-8.
    package var maxStringBytes: Int
    /// The most items in one array or members in one object.
    package var maxContainerCount: Int

    package init(maxDepth: Int = 64, maxStringBytes: Int = 1 << 20, maxContainerCount: Int = 100_000) {
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        self.maxContainerCount = maxContainerCount
    }

    package static let `default` = JSONLimits()
}
