import Foundation

/// A fresh folder under the system temporary folder, removed when the value is released.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init(_ label: String = "easel-test") {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-XXXXXX").path
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot create a temporary folder")
        url = URL(fileURLWithPath: String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public var path: String { url.path }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> URL {
        let target = file(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: target)
        return target
    }

    @discardableResult
    public func write(_ text: String, to name: String) throws -> URL {
        try write(Array(text.utf8), to: name)
    }
}
