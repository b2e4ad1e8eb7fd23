import Foundation
import EaselDocuments

/// Decides what a batch does: which documents below the input folders are exported (this
/// shard's), under which relative output path. Pure: it lists folders and reads nothing.
public enum BatchPlanner {
    /// The documents to export, with their outputs: `A/B/x.rwcard` becomes `A/B/x.png`;
    /// several input folders are mirrored side by side under their own names; documents
    /// that would collide (`x.rwcard`, `x.drawing`) keep their extensions (`x.rwcard.png`).
    public static func items(inputs: [URL], outputFolder: URL, options: BatchExportOptions, registry: DocumentRegistry)
        -> [BatchItem]
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
        var items: [BatchItem] = []
        for (input, label) in zip(inputs, labels) {
            for relative in DocumentScanner.documents(in: input, registry: registry, excluding: options.excluded + [outputFolder])
            {
                let key = inputs.count == 1 ? relative : label + "/" + relative
                if let shard = options.shard, !shard.contains(key) { continue }
                items.append(BatchItem(input: input.appendingPathComponent(relative), key: key, output: ""))
            }
        }
        // Outputs replace the extension; documents that would collide (x.rwcard, x.drawing)
        // keep theirs (x.rwcard.png, x.drawing.png).
        let ext = options.render.format.fileExtension
        let stems = items.map { ($0.key as NSString).deletingPathExtension }
        var counts: [String: Int] = [:]
        for stem in stems { counts[stem, default: 0] += 1 }
        for i in items.indices {
            items[i].output = (counts[stems[i]]! > 1 ? items[i].key : stems[i]) + "." + ext
        }
        return items
    }
}
