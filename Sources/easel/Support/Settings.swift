import FoundationEssentials
import EaselRender
import EaselCairo
import EaselGeometry
import EaselSupport
import Glibc

/// User defaults for the command line, stored as a property list at
/// `$XDG_CONFIG_HOME/easel/settings.plist` (`~/.config/easel/settings.plist` by default).
/// Command-line options override them. A corrupt file, or one over `maxFileBytes`, is
/// reported once and ignored; so is each value in it that is not valid for its key (a
/// stored default must never make every export fail), and each key that is not a setting.
/// What is ignored stays in the file when a setting is saved.
struct Settings {
    /// The largest settings file read: a few keys take a few hundred bytes.
    static let maxFileBytes = 64 << 10

    enum Key: String, CaseIterable {
        case format, scale, jobs
        case pngCompression = "png-compression"
        case color

        /// Every setting's name, for messages about a name that is not one.
        static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

        var help: String {
            switch self {
            case .format: return "default export format: png, svg or pdf"
            case .scale:
                return "default export scale, a positive number up to \(formatNumber(RenderOptionGroup.scaleRange.upperBound))"
            case .jobs: return "default number of parallel export jobs, 1 or more"
            case .pngCompression: return "default PNG zlib level, 0 to 9"
            case .color: return "coloured terminal output: auto, always or never"
            }
        }

        /// What applies when the setting is not set.
        var defaultValue: String {
            switch self {
            case .format: return "png"
            case .scale: return "1"
            case .jobs: return "\(ProcessInfo.processInfo.activeProcessorCount) (the number of cores)"
            case .pngCompression: return "\(PNGEncodingOptions.default.compressionLevel)"
            case .color: return "auto"
            }
        }

        /// What a valid value is, with an example, for messages about one that is not.
        var expected: String {
            switch self {
            case .format: return "png, svg or pdf"
            case .scale:
                let range = RenderOptionGroup.scaleRange
                return
                    "a positive number from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound)), e.g. 2"
            case .jobs: return "a whole number from 1 to 1024, e.g. 4"
            case .pngCompression: return "a whole number from 0 to 9, e.g. 6"
            case .color: return "auto, always or never"
            }
        }

        /// Checks and normalises a value; nil when it is not valid for the key. A scale is
        /// one `--scale` accepts (`RenderOptionGroup.scaleRange`).
        func normalise(_ value: String) -> String? {
            switch self {
            case .format: return OutputFormat(rawValue: value.lowercased())?.rawValue
            case .scale: return Double(value).flatMap { RenderOptionGroup.scaleRange.contains($0) ? String($0) : nil }
            case .jobs: return Int(value).flatMap { $0 >= 1 && $0 <= 1024 ? String($0) : nil }
            case .pngCompression: return Int(value).flatMap { (0...9).contains($0) ? String($0) : nil }
            case .color: return ["auto", "always", "never"].contains(value.lowercased()) ? value.lowercased() : nil
            }
        }
    }

    private(set) var values: [String: String] = [:]
    /// The file's other entries, as they were read: keys this version does not know (a
    /// newer Easel's, or a hand-made typo), and values it ignored. A save writes them back:
    /// setting one value never loses anything else the file held.
    private var kept: [String: StoredValue] = [:]
    /// Why the file could not be used, if it could not.
    private(set) var problem: String?
    /// The values in the file that were ignored, each as `<file>: <key>: why`.
    private(set) var ignored: [String] = []

    static var fileURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
        return URL(fileURLWithPath: base).appendingPathComponent("easel/settings.plist")
    }

    static func load() -> Settings {
        var settings = Settings()
        let url = fileURL
        guard FileManager.default.fileExists(atPath: url.path) else { return settings }
        let data: Data
        do {
            // Read with a limit: the file is the user's, but nothing makes it small.
            data = Data(try FileIO.readBytes(at: url.path, maxBytes: maxFileBytes))
        } catch {
            if case .limitExceeded = error.kind {
                settings.problem = "\(url.path) is larger than \(maxFileBytes) bytes, so it is not read; using the defaults"
            } else {
                settings.problem = "\(url.path) is unreadable (\(error.reason)); using the defaults"
            }
            return settings
        }
        if let problem = shapeProblem(of: data) {
            settings.problem = "\(url.path) \(problem); using the defaults"
            return settings
        }
        do {
            let dictionary = try PropertyListDecoder().decode([String: StoredValue].self, from: data)
            var unknown = 0
            for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                guard let key = Key(rawValue: name) else {
                    settings.kept[name] = value
                    unknown += 1
                    // The first few by name, the rest counted: a file may hold hundreds.
                    guard unknown <= 3 else { continue }
                    settings.ignored.append(
                        "\(url.path): \(name.prefix(40)): not a setting (the settings are \(Key.names)); it is ignored, and kept in the file"
                    )
                    continue
                }
                guard let normalised = key.normalise(value.text) else {
                    settings.kept[name] = value
                    let shown = value.text.prefix(40)  // a value may be long
                    settings.ignored.append("\(url.path): \(name): \"\(shown)\" is not \(key.expected); it is ignored")
                    continue
                }
                settings.values[key.rawValue] = normalised
            }
            if unknown > 3 {
                settings.ignored.append(
                    "\(url.path): \(unknown - 3) more keys that are not settings; they are ignored, and kept in the file")
            }
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            settings.problem = "\(url.path) is not a dictionary of settings; using the defaults"
        } catch DecodingError.dataCorrupted(let context) {
            settings.problem = "\(url.path) is unreadable (\(context.debugDescription)); using the defaults"
        } catch {
            settings.problem = "\(url.path) is unreadable (\(error)); using the defaults"
        }
        return settings
    }

    /// The most lists and dictionaries a settings file may nest in one another: its own
    /// dictionary and, in a value kept for a newer Easel, a few more. Foundation's reader
    /// takes time that grows steeply with the depth (400 levels took 1.7 s, 1,000 over 20 s)
    /// and a value kept is read and written back level by level.
    static let maxNesting = 16

    /// Why `data` is not read as a settings file, checked before Foundation's reader sees
    /// it: a binary property list (Easel writes XML; a binary one's objects may refer to
    /// one another in a cycle), or lists and dictionaries nested deeper than `maxNesting`.
    static func shapeProblem(of data: Data) -> String? {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist".utf8)) {
            return "is a binary property list (easel config reads and writes XML ones: plutil -convert xml1 converts it)"
        }
        var depth = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            var cursor = index + 1
            let closing = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "/")
            if closing { cursor += 1 }
            let nameStart = cursor
            while cursor < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[cursor]) { cursor += 1 }
            guard let end = bytes[cursor...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let name = String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
            if name == "array" || name == "dict" {
                if closing {
                    depth -= 1
                } else if bytes[end - 1] != UInt8(ascii: "/") {
                    depth += 1
                    if depth > maxNesting { return "nests lists and dictionaries more than \(maxNesting) deep" }
                }
            }
            index = end + 1
        }
        return nil
    }

    /// A value of the file, of any kind a property list holds, kept as it is so that it can
    /// be written back; `text` is how a key's `normalise` reads it: a string as it is, a
    /// number or a truth value as Swift writes it (`3`, `1e+308`, `true`).
    enum StoredValue: Codable {
        case string(String)
        case whole(Int)
        case number(Double)
        case truth(Bool)
        case date(Date)
        case data(Data)
        case list([StoredValue])
        case dictionary([String: StoredValue])

        var text: String {
            switch self {
            case .string(let string): return string
            case .whole(let whole): return String(whole)
            case .number(let number): return "\(number)"
            case .truth(let truth): return String(truth)
            case .date, .data, .list, .dictionary: return "a list, a dictionary, a date or data"
            }
        }

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let string = try? value.decode(String.self) {
                self = .string(string)
            } else if let whole = try? value.decode(Int.self) {
                self = .whole(whole)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else if let truth = try? value.decode(Bool.self) {
                self = .truth(truth)
            } else if let date = try? value.decode(Date.self) {
                self = .date(date)
            } else if let data = try? value.decode(Data.self) {
                self = .data(data)
            } else if let list = try? value.decode([StoredValue].self) {
                self = .list(list)
            } else {
                self = .dictionary(try value.decode([String: StoredValue].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var value = encoder.singleValueContainer()
            switch self {
            case .string(let string): try value.encode(string)
            case .whole(let whole): try value.encode(whole)
            case .number(let number): try value.encode(number)
            case .truth(let truth): try value.encode(truth)
            case .date(let date): try value.encode(date)
            case .data(let data): try value.encode(data)
            case .list(let list): try value.encode(list)
            case .dictionary(let dictionary): try value.encode(dictionary)
            }
        }
    }

    /// A setting's value; setting or clearing it also drops a value of it the file held
    /// that was ignored.
    subscript(key: Key) -> String? {
        get { values[key.rawValue] }
        set {
            values[key.rawValue] = newValue
            kept[key.rawValue] = nil
        }
    }

    /// Writes the settings, with the file's other entries as they were read (`kept`).
    func save() throws {
        let url = Self.fileURL
        try FileIO.createFolders(at: url.deletingLastPathComponent().path)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let data = try encoder.encode(kept.merging(values.mapValues(StoredValue.string)) { _, set in set })
        // A settings file that is a link (kept with other dotfiles) is written where it leads,
        // not replaced by a file of its own.
        var target = url.path
        if let resolved = realpath(url.path, nil) {
            target = String(cString: resolved)
            free(resolved)
        } else if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
            // A link to a file not made yet.
            target = link.hasPrefix("/") ? link : url.deletingLastPathComponent().appendingPathComponent(link).path
        }
        try AtomicFile.write(Array(data), to: target)
    }

    /// Loads the settings, telling the user once if the file is broken or a value in it is
    /// ignored.
    static func loadReportingProblems() -> Settings {
        let settings = load()
        if let problem = settings.problem { Terminal.printError("easel: warning: settings: \(problem)") }
        for ignored in settings.ignored { Terminal.printError("easel: warning: \(ignored)") }
        return settings
    }
}

import EaselDocuments
import EaselEditing
import EaselBatch
