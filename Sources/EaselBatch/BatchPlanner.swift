import EaselDocuments
import EaselRender
import EaselSupport
import FoundationEssentials

/// Decides what a batch does: which documents below the input folders are exported (this
/// shard's), under which relative output path. Pure: it lists folders and reads nothing.
public enum BatchPlanner {
    /// The documents to export, with their outputs: `A/B/x.rwcard` becomes `A/B/x.png`;
    /// several input folders are mirrored side by side under their own names, and documents
    /// given as inputs go at the top (`x.rwcard` becomes `x.png`); documents
    /// that would collide (`x.rwcard`, `x.drawing`) keep their extensions (`x.rwcard.png`).
    public static func items(inputs: [URL], outputFolder: URL, options: BatchExportOptions, registry: DocumentRegistry)
        -> [BatchItem]
    {
        plan(inputs: inputs, outputFolder: outputFolder, options: options, registry: registry).items
    }

    /// `items`, with the fingerprint of the whole document set before sharding (its size and
    /// a hash of every document's key): shard reports from the same set agree on it.
    public static func plan(inputs: [URL], outputFolder: URL, options: BatchExportOptions, registry: DocumentRegistry)
        -> (items: [BatchItem], documentSet: String)
    {
        // Several input folders are mirrored side by side under their own names.
        var labels: [String] = []
        for input in inputs {
            var label = input.lastPathComponent
            var n = 2
            while labels.contains(label) {
                label = "\(input.lastPathComponent)-\(n)"
                n += 1
            }
            labels.append(label)
        }
        // Names are decided from the whole list, before sharding, so every shard agrees.
        var all: [BatchItem] = []
        for (input, label) in zip(inputs, labels) {
            // A document named directly is written at the top of the output folder.
            if registry.isDocument(input) {
                all.append(BatchItem(input: input, key: label, output: ""))
                continue
            }
            let scan = DocumentScanner.scan(input, registry: registry, excluding: options.excluded + [outputFolder])
            for entry in scan {
                let key = inputs.count == 1 ? entry.relativePath : label + "/" + entry.relativePath
                all.append(
                    BatchItem(
                        input: input.appendingPathComponent(entry.relativePath), key: key, output: "", problem: entry.problem))
            }
        }
        nameOutputs(&all, format: options.render.format, thumbnails: options.thumbnails)
        let keys = all.map(\.key).sorted().joined(separator: "\n")
        let hex = String(FNV1a.hash(keys), radix: 16)
        let documentSet = "\(all.count):" + String(repeating: "0", count: 16 - hex.count) + hex
        guard let shard = options.shard else { return (all, documentSet) }
        return (all.filter { shard.contains($0.key) }, documentSet)
    }

    /// Outputs replace the extension (`A/x.rwcard` → `A/x.png`, thumbnail `A/x.thumbnail.png`).
    /// Documents whose outputs or thumbnails would land on the same name as any other
    /// output keep their own extension (`x.rwcard.png`, `x.drawing.png`), until no two
    /// names are the same, and none stands where a folder of outputs must be (`b.rwcard`
    /// beside a folder `b.png/` of documents: `b.rwcard.png`). A kept extension never
    /// collides with another file (keys are unique); one that stands on a folder even so is
    /// given a problem saying so.
    static func nameOutputs(_ items: inout [BatchItem], format: OutputFormat, thumbnails: Bool) {
        var keepsExtension = Set<Int>()
        while true {
            for i in items.indices {
                let stem = keepsExtension.contains(i) ? items[i].key : PathNames.deletingExtension(of: items[i].key)
                items[i].output = stem + "." + format.fileExtension
                items[i].thumbnail = thumbnails ? stem + ".thumbnail.png" : nil
            }
            var claims: [String: [Int]] = [:]
            // The folders the outputs go in: a file output of the same name would stand where
            // a folder must be (`b.png` beside a folder `b.png/` of documents).
            var folders = Set<String>()
            for i in items.indices where items[i].problem == nil {
                for file in [items[i].output] + (items[i].thumbnail.map { [$0] } ?? []) {
                    claims[file, default: []].append(i)
                    // Relative paths with "/" between components (Foundation's
                    // deletingLastPathComponent traps on a name without a slash).
                    var folder = Self.parent(of: file)
                    while !folder.isEmpty, folders.insert(folder).inserted { folder = Self.parent(of: folder) }
                }
            }
            let onFolders = Set(
                items.indices.filter { i in
                    items[i].problem == nil
                        && ([items[i].output] + (items[i].thumbnail.map { [$0] } ?? [])).contains(where: folders.contains)
                })
            // One that keeps its extension and still stands on a folder cannot be named: said so.
            for i in onFolders.intersection(keepsExtension) {
                items[i].problem =
                    "its output \(items[i].output) would stand where a folder of other outputs must be; rename the document or that folder"
            }
            let colliding = Set(claims.values.filter { $0.count > 1 }.flatMap { $0 }).union(onFolders).subtracting(keepsExtension)
            if colliding.isEmpty && onFolders.isDisjoint(with: keepsExtension) { return }
            keepsExtension.formUnion(colliding)
        }
    }

    /// The folder part of a relative path ("" at the top: `A/B/x.png` → `A/B` → `A` → "").
    private static func parent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }
}
