import Foundation
import Testing
import EaselDocuments
import EaselEditing
import EaselGeometry
import EaselRender
import EaselTestSupport

/// Every number a document holds, replaced in turn by each extreme double (subnormals, the
/// largest finite values, -0, values that make a count infinite), still opens or fails with
/// a message, describes, and renders or fails with a message: no conversion on the way can
/// trap. (A dash of 1e-300 once made the lowering convert an infinite dash count to `Int`
/// and stopped the process; a server then died again on every listing of its folder.)
@Suite("Extreme numbers in documents")
struct ExtremeNumberTests {
    static let extremes: [Double] = [
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e-300, -1e-300, 1e308, -1e308, .greatestFiniteMagnitude, -0.0,
    ]

    static let samples = ProcessRunner.packageRoot.appendingPathComponent("Assets/Samples")

    /// The key paths of every number in a JSON value, in document order.
    static func numberPaths(in value: Any, at path: [Any] = []) -> [[Any]] {
        switch value {
        case let object as [String: Any]:
            return object.keys.sorted().flatMap { numberPaths(in: object[$0]!, at: path + [$0]) }
        case let array as [Any]:
            return array.indices.flatMap { numberPaths(in: array[$0], at: path + [$0]) }
        case let number as NSNumber where !["c", "B"].contains(String(cString: number.objCType)):
            return [path]  // a number, not a boolean
        default:
            return []
        }
    }

    static func replacing(_ path: ArraySlice<Any>, in value: Any, with number: Double) -> Any {
        guard let key = path.first else { return number }
        if var object = value as? [String: Any], let name = key as? String {
            object[name] = replacing(path.dropFirst(), in: object[name]!, with: number)
            return object
        }
        var array = value as! [Any]
        let index = key as! Int
        array[index] = replacing(path.dropFirst(), in: array[index], with: number)
        return array
    }

    /// Opens, describes and renders `url`: each step either works or throws; a trap would
    /// end the test process.
    static func exercise(_ url: URL) {
        guard let located = try? DocumentRegistry.standard.open(url) else { return }
        if let editable = located.document as? any EditableDocument {
            let description = DocumentDescription(
                editable, at: url, resourceFolder: located.resourceFolder, warnings: located.warnings)
            #expect(!description.elements.isEmpty || editable.elementCount == 0)
        }
        let deadline = RenderTimeout.deadline(seconds: 10)
        if let scene = try? DocumentRenderer.scene(for: located, deadline: deadline) {
            _ = try? DocumentRenderer.export(scene, options: RenderOptions(size: .width(48)))
            _ = try? DocumentRenderer.export(scene, options: RenderOptions(format: .svg, size: .width(48)))
        }
    }

    @Test(arguments: ["Showcase.drawing", "1A2B3C4D-0000-4000-8000-000000000002.rwcard"])
    func everyNumberAtEveryExtreme(_ name: String) throws {
        let original = try Data(contentsOf: Self.samples.appendingPathComponent(name))
        let json = try JSONSerialization.jsonObject(with: original)
        let paths = Self.numberPaths(in: json)
        #expect(paths.count > 20, "the sample has numbers to vary")
        let folder = TemporaryFolder()
        // The sample's images, so that image elements resolve as in the sample folder.
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.samples.path) where !file.contains(".") {
            try FileManager.default.copyItem(
                at: Self.samples.appendingPathComponent(file), to: folder.file(file))
        }
        for path in paths {
            for extreme in Self.extremes {
                let mutated = Self.replacing(path[...], in: json, with: extreme)
                let bytes = try JSONSerialization.data(withJSONObject: mutated)
                let url = folder.file(name)
                try bytes.write(to: url)
                Self.exercise(url)
            }
        }
    }

    @Test func aDashOfTinyLengthsIsDrawnSolidWithAWarning() throws {
        let folder = TemporaryFolder()
        let url = try folder.write(
            #"{"version":1,"canvas":{"size":[100,100]},"graphics":[{"kind":"line","from":[0,0],"to":[1,1],"transform":{"center":[50,50],"size":[100,100]},"stroke":{"color":[0,0,0,1],"width":2,"dash":[1e-300]}}]}"#,
            to: "tiny.drawing")
        let located = try DocumentRegistry.standard.open(url)
        let scene = try DocumentRenderer.scene(for: located)
        let warning = try #require(scene.warnings.first { $0.keyPath.hasSuffix(".stroke.dash") })
        #expect(warning.message.contains("more than a trillion dashes, over the budget"), "\(warning)")
        let file = try DocumentRenderer.export(scene, options: RenderOptions(size: .width(20)))
        #expect(file.width == 20)
    }
}
