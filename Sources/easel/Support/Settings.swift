import Foundation
import EaselRender
import EaselCairo

/// User defaults for the command line, stored as a property list at
/// `$XDG_CONFIG_HOME/easel/settings.plist` (`~/.config/easel/settings.plist` by default).
/// Command-line options override them. A corrupt file is reported once and ignored.
struct Settings {
    enum Key: String, CaseIterable {
        case format, scale, jobs
        case pngCompression = "png-compression"
        case color

        var help: String {
            switch self {
            case .format: return "default export format: png, svg or pdf"
            case .scale: return "default export scale, a positive number"
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

        /// Checks and normalises a value; nil when it is not valid for the key.
        func normalise(_ value: String) -> String? {
            switch self {
            case .format: return OutputFormat(rawValue: value.lowercased())?.rawValue
            case .scale: return Double(value).flatMap { $0.isFinite && $0 > 0 ? String($0) : nil }
            case .jobs: return Int(value).flatMap { $0 >= 1 && $0 <= 1024 ? String($0) : nil }
            case .pngCompression: return Int(value).flatMap { (0...9).contains($0) ? String($0) : nil }
            case .color: return ["auto", "always", "never"].contains(value.lowercased()) ? value.lowercased() : nil
            }
        }
    }

    private(set) var values: [String: String] = [:]
    /// Why the file could not be used, if it could not.
    private(set) var problem: String?

    static var fileURL: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return URL(fileURLWithPath: base).appendingPathComponent("easel/settings.plist")
    }

    static func load() -> Settings {
        var settings = Settings()
        let url = fileURL
        guard FileManager.default.fileExists(atPath: url.path) else { return settings }
        do {
            let data = try Data(contentsOf: url)
            guard let dictionary = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                settings.problem = "\(url.path) is not a dictionary of settings; using the defaults"
                return settings
            }
            for (key, value) in dictionary {
                guard let key = Key(rawValue: key), let normalised = key.normalise("\(value)") else { continue }
                settings.values[key.rawValue] = normalised
            }
        } catch {
            settings.problem = "\(url.path) is unreadable (\(error.localizedDescription)); using the defaults"
        }
        return settings
    }

    subscript(key: Key) -> String? {
        get { values[key.rawValue] }
        set { values[key.rawValue] = newValue }
    }

    func save() throws {
        let url = Self.fileURL
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        try AtomicFile.write(Array(data), to: url.path)
    }

    /// Loads the settings, telling the user once if the file is broken.
    static func loadReportingProblems() -> Settings {
        let settings = load()
        if let problem = settings.problem { Terminal.printError("easel: warning: settings: \(problem)") }
        return settings
    }
}

import EaselDocuments
import EaselEditing
import EaselBatch
