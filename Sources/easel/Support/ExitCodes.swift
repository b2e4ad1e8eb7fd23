import ArgumentParser

/// Easel's stable exit codes: 0 success, 1 failure (a folder export: it finished, but some
/// documents failed), 2 a folder export that could not start (an output folder that cannot
/// be written, another run of the same shard), 64 usage error (ArgumentParser's own
/// validation errors already exit 64), 128 + the signal when stopped by one.
extension ExitCode {
    static let documentFailure = ExitCode(1)
    static let couldNotRun = ExitCode(2)
    static let usage = ExitCode(64)
}
