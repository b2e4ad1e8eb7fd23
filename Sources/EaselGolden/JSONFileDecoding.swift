import EaselSupport
import FoundationEssentials

/// Reads and decodes a JSON file the golden tools keep (settings, reports): at most
/// `maxBytes`, every failure a DocumentError naming the file and the JSON key path.
func decodeJSONFile<T: Decodable>(_ type: T.Type, at path: String, maxBytes: Int, what: String) throws(DocumentError) -> T {
    let bytes: [UInt8]
    do { bytes = try FileIO.readBytes(at: path, maxBytes: maxBytes) } catch {
        throw DocumentError(file: path, kind: .io("cannot read \(what): \(error.reason)"))
    }
    do {
        return try JSONDecoder().decode(T.self, from: Data(bytes))
    } catch let error as DecodingError {
        throw DocumentError(decoding: error, file: path)
    } catch {
        throw DocumentError(file: path, kind: .invalidValue("\(error)"))
    }
}

/// Throws, naming the key path, when the object `decoder` reads holds a key not in `known`:
/// the golden settings are edited by hand, and a misspelt setting (`tolerence`) that is
/// ignored in silence would verify with limits nobody chose.
func refuseUnknownKeys(in decoder: Decoder, known: [String]) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !known.contains(key.stringValue) {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath + [key],
                debugDescription: "unknown key \"\(key.stringValue)\" (known here: \(known.joined(separator: ", ")))"))
    }
}

/// A coding key for dictionary keys and array indexes in error paths.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init(_ index: Int) {
        stringValue = "[\(index)]"
        intValue = index
    }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { self.init(intValue) }
}

extension DocumentError {
    /// A Codable decoding error as a DocumentError naming `file` and the JSON key path.
    init(decoding error: DecodingError, file: String) {
        func path(_ keys: [CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.reduce("") { path, key in
                path.isEmpty || key.hasPrefix("[") ? path + key : path + "." + key
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(file: file, keyPath: path(context.codingPath), kind: .missingKey(key.stringValue))
        case .typeMismatch(let type, let context):
            self.init(
                file: file, keyPath: path(context.codingPath), kind: .typeMismatch(expected: "\(type)", found: "another type"))
        case .valueNotFound(let type, let context):
            self.init(file: file, keyPath: path(context.codingPath), kind: .typeMismatch(expected: "\(type)", found: "null"))
        case .dataCorrupted(let context):
            self.init(file: file, keyPath: path(context.codingPath), kind: .invalidValue(context.debugDescription))
        @unknown default:
            self.init(file: file, kind: .invalidValue("\(error)"))
        }
    }
}
