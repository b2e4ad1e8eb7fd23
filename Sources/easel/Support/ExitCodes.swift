import ArgumentParser

/// Easel's stable exit codes: 0 success, 1 failure, 64 usage error (ArgumentParser's own
/// validation errors already exit 64).
extension ExitCode {
    static let documentFailure = ExitCode(1)
    static let usage = ExitCode(64)
}
