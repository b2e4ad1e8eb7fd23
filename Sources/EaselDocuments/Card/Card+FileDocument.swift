import EaselGeometry
import EaselSupport
import Foundation

extension Card: FileDocument {
    public static var readableContentTypes: [ContentType] { [.card] }
    public static var maxFileBytes: Int { CardLimits.maxFileBytes }

    public init(configuration: ReadConfiguration, warnings: inout [DocumentWarning]) throws(DocumentError) {
        self = try CardDecoder.decode(configuration.regularFileBytes(), file: configuration.displayName, warnings: &warnings)
    }

    public func fileWrapper(configuration: WriteConfiguration) throws(DocumentError) -> FileWrapper {
        .regularFile(try CardEncoder.encode(self, file: configuration.fileURL.path))
    }

    /// The image files the card's image elements name, each once.
    public var referencedFileNames: [String] {
        var seen = Set<String>()
        return imageElements.compactMap(\.imageFilename).filter { seen.insert($0).inserted }
    }
}
