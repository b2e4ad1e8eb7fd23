import ArgumentParser
import EaselSupport
import FoundationEssentials

struct ConfigCommand: EaselCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Read and change user defaults (export format, scale, jobs, PNG compression, colour output).",
        discussion: """
            Settings live in $XDG_CONFIG_HOME/easel/settings.plist (~/.config/easel/settings.plist). \
            Command-line options override them. Keys: \(Settings.Key.allCases.map { "\($0.rawValue) (\($0.help))" }.joined(separator: "; ")).

            Examples:
              easel config set format svg
              easel config get png-compression
              easel config list
              easel config reset
            """
    )

    enum Action: String, ExpressibleByArgument, CaseIterable { case get, set, list, reset }

    @Argument(help: "get, set, list or reset.")
    var action: Action
    @Argument(help: "The setting.")
    var key: String?
    // Everything else on the line, so that `set scale -1` is read as a value (and told
    // what is expected), not as an unknown option "-1".
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The new value (for set).", valueName: "value"))
    var values: [String] = []

    /// The new value, when one was given.
    var value: String? { values.first }

    func validate() throws {
        if let key, Settings.Key(rawValue: key) == nil {
            throw ValidationError(
                "Unknown setting \"\(key)\"; the settings are \(Settings.Key.names).")
        }
        if values.count > 1 {
            throw ValidationError(
                "`config \(action.rawValue)` takes at most one value, found \(values.count): \(values.joined(separator: " ")).")
        }
        if action != .set, let value {
            throw ValidationError("`config \(action.rawValue)` takes no value, found \"\(value)\".")
        }
        switch action {
        case .get where key == nil: throw ValidationError("`config get` needs a setting name.")
        case .set where key == nil || value == nil: throw ValidationError("`config set` needs a setting name and a value.")
        case .set:
            let settingKey = Settings.Key(rawValue: key!)!
            if settingKey.normalise(value!) == nil {
                throw ValidationError("\(key!): expected \(settingKey.expected); \"\(value!)\" is not a valid \(key!).")
            }
        case .list where key != nil: throw ValidationError("`config list` takes no setting name.")
        default: break
        }
    }

    func execute() throws {
        var settings = Settings.loadReportingProblems()
        // A file that could not be read is the user's still: writing one setting would
        // replace it with that setting alone.
        if settings.problem != nil, action == .set || (action == .reset && key != nil) {
            throw DocumentError(
                file: Settings.fileURL.path,
                kind: .io(
                    "it cannot be read (the warning above says why), and writing a setting would lose the others; nothing was changed — fix the file or remove it"
                ))
        }
        switch action {
        case .get:
            let settingKey = Settings.Key(rawValue: key!)!
            // Unset: the value that applies, marked as the default (so scripts still get a value).
            Terminal.write(settings[settingKey] ?? "\(settingKey.defaultValue) (default)")
        case .set:
            let settingKey = Settings.Key(rawValue: key!)!
            settings[settingKey] = settingKey.normalise(value!)
            try settings.save()
            Terminal.write("\(settingKey.rawValue) = \(settings[settingKey]!)")
        case .list:
            for settingKey in Settings.Key.allCases {
                Terminal.write("\(settingKey.rawValue) = \(settings[settingKey] ?? "\(settingKey.defaultValue) (default)")")
            }
        case .reset:
            if let key {
                settings[Settings.Key(rawValue: key)!] = nil
                try settings.save()
                Terminal.write("\(key) reset to its default")
            } else {
                try? FileManager.default.removeItem(at: Settings.fileURL)
                Terminal.write("all settings reset to their defaults")
            }
        }
    }
}
