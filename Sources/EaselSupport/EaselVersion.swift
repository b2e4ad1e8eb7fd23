/// Easel's version, as `easel --version` and `easel-serve --version` print it: one
/// constant, so the two programs of one build never disagree.
package enum EaselVersion {
    /// The version of this build of Easel.
    package static let current = "0.1.0"
}
