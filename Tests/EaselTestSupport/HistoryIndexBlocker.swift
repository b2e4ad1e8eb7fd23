import Foundation

/// Makes the next save's history commit fail, in a state folder that holds one document's
/// history: a folder stands where the history index goes, so a save renames the document
/// into place and then fails to rename the index over it. Planted once the editor is open
/// (opening removes a history it cannot read). Throws when the state folder holds no
/// document's history.
public func blockHistoryIndex(inStateFolder state: URL) throws {
    let documents = state.appendingPathComponent("documents")
    guard let folder = try FileManager.default.contentsOfDirectory(atPath: documents.path).first else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: documents.path])
    }
    let index = documents.appendingPathComponent(folder).appendingPathComponent("index.json")
    try? FileManager.default.removeItem(at: index)
    try FileManager.default.createDirectory(at: index.appendingPathComponent("blocker"), withIntermediateDirectories: true)
}
