import EaselTestSupport

/// The CLI tests' scratch folder: `easel` run in a folder with settings and state folders
/// of its own (`EaselScratch`, shared with the reliability tests).
typealias CLIScratch = EaselScratch
