import EaselGeometry
import EaselSupport
import FoundationEssentials

/// The documents folder of the Cards app: cards and their images side by side.
public enum CardFolder {
    /// The PNG signature every image file must start with.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Stores PNG bytes as a new image file in `folder`, named as the app names them (a new
    /// upper-case UUID, no extension), written atomically. Returns the name to put in an
    /// image element's `imageFilename`.
    public static func addImage(png: [UInt8], to folder: URL) throws(DocumentError) -> String {
        guard png.starts(with: pngSignature) else {
            throw DocumentError(file: folder.path, kind: .invalidValue("an image for a card must be a PNG file"))
        }
        let name = UUID().uuidString.uppercased()
        try AtomicFile.write(png, to: folder.appendingPathComponent(name).path)
        CreatedFiles.record(folder.appendingPathComponent(name).path)
        return name
    }
}
