import Foundation
import EaselDocuments

/// The files a document draws from (its images), by the name the document gives and the
/// path where it is looked for: a missing file is listed with its path (if it appears later,
/// the output must change); a refused name (`../x`) with no path, since it is never read.
public enum ReferencedFiles {
    public static func of(_ document: any FileDocument, at url: URL) -> [(name: String, path: String?)] {
        var names: [String] = []
        if let card = document as? Card {
            names = card.imageElements.compactMap(\.imageFilename)
        } else if let drawing = document as? Drawing {
            func collect(_ graphics: [Graphic]) {
                for graphic in graphics {
                    switch graphic.kind {
                    case .image(let file): names.append(file)
                    case .group(let children): collect(children)
                    default: break
                    }
                }
            }
            collect(drawing.graphics)
        } else {
            return []
        }
        let folder = Drawing.imageFolder(for: url) // a card's folder, or a drawing's package
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }.map { name in
            switch FolderFileResolver.resolve(name, inFolder: folder) {
            case .file(let file): return (name, file.path)
            case .missing: return (name, folder.appendingPathComponent(name).path)
            case .refused: return (name, nil)
            }
        }
    }
}
