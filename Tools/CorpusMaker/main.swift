// Writes Easel's corpus of hostile inputs, each case a folder holding a document (and any
// images or links it names), plus expectations.json giving each case's expected outcome:
// a clear error (with a phrase it must contain) or a render with warnings. Deterministic.
// Run with `swift run CorpusMaker Tests/Corpus/hostile`; the tests read the result.
import EaselCairo
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: CorpusMaker OUTPUT-FOLDER\n".utf8))
    exit(64)
}
let root = URL(fileURLWithPath: CommandLine.arguments[1])
try? FileManager.default.removeItem(at: root)
try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)

struct Expectation: Codable {
    var name: String
    var document: String
    /// "error" or "renders".
    var outcome: String
    /// Phrases the error (or some warning) must contain.
    var phrases: [String]
}
var expectations: [Expectation] = []

@MainActor func write(_ bytes: [UInt8], _ path: String) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
}

@MainActor func add(
    _ name: String, document: String = "card.rwcard", _ bytes: [UInt8], _ outcome: String, _ phrases: [String],
    files: [String: [UInt8]] = [:]
) throws {
    try write(bytes, "\(name)/\(document)")
    for (file, content) in files { try write(content, "\(name)/\(file)") }
    expectations.append(Expectation(name: name, document: document, outcome: outcome, phrases: phrases))
}

func text(_ s: String) -> [UInt8] { Array(s.utf8) }

let t = #"{"size":[400,300],"rotation":{"degrees":0},"offset":[0,0]}"#
func card(
    images: String = "[]", texts: String = "[]", background: String = "[1,1,1,1]",
    id: String = "\"1A2B3C4D-0000-4000-8000-00000000C0DE\""
) -> String {
    #"{"id":\#(id),"backgroundColor":\#(background),"imageElements":\#(images),"textElements":\#(texts)}"#
}
let valid = card(
    images: #"[{"transform":\#(t),"imageFilename":"IMG","frameIndex":3}]"#,
    texts: #"[{"transform":\#(t),"text":"hi","textColor":[0,0,0,1],"textFont":"Gill Sans"}]"#)

// MARK: Not JSON
try add("empty", [], "error", ["the file is empty"])
try add("truncated", Array(text(valid).prefix(valid.utf8.count / 2)), "error", ["not valid JSON"])
try add("not-json", text("Dear Easel, this is a letter."), "error", ["not valid JSON", "unexpected 'D'"])
var random: UInt32 = 7
try add(
    "binary",
    (0..<512).map { _ in
        random = random &* 1_103_515_245 &+ 12_345
        return UInt8(truncatingIfNeeded: random >> 16)
    }, "error", ["not valid JSON"])
try add("invalid-utf8", text(#"{"id":""#) + [0xC3, 0x28, 0xFF] + text(#"","imageElements":[]}"#), "error", ["not valid UTF-8"])
try add("bom-and-trailing-garbage", [0xEF, 0xBB, 0xBF] + text(valid + " }"), "error", ["unexpected data after the JSON value"])

// MARK: Wrong types at every level
try add("type-root", text("[1, 2, 3]"), "error", ["expected a card object, found an array"])
try add("type-id", text(card(id: "42")), "error", ["id: expected a string, found the number 42"])
try add(
    "type-image-elements", text(#"{"id":"x","imageElements":{"a":1},"textElements":[],"backgroundColor":[1,1,1,1]}"#), "error",
    ["imageElements: expected an array, found an object"])
try add("type-element", text(card(images: "[7]")), "error", ["imageElements[0]: expected an object, found the number 7"])
try add(
    "type-transform", text(card(images: #"[{"transform":"big"}]"#)), "error", ["imageElements[0].transform: expected an object"])
try add(
    "type-size", text(card(images: #"[{"transform":{"size":["a","b"],"rotation":{"degrees":0},"offset":[0,0]}}]"#)), "error",
    ["imageElements[0].transform.size[0]: expected a number, found the string \"a\""])
try add(
    "type-degrees", text(card(images: #"[{"transform":{"size":[1,1],"rotation":{"degrees":{}},"offset":[0,0]}}]"#)), "error",
    ["transform.rotation.degrees: expected a number, found an object"])
try add("type-colour", text(card(background: #""red""#)), "error", ["backgroundColor: expected an array of 4 numbers"])
try add(
    "type-text", text(card(texts: #"[{"transform":\#(t),"text":5,"textColor":[0,0,0,1],"textFont":"x"}]"#)), "error",
    ["textElements[0].text: expected a string"])
try add(
    "type-frame-index", text(card(images: #"[{"transform":\#(t),"frameIndex":"heart"}]"#)), "error",
    ["frameIndex: expected a whole number"])

// MARK: Missing and extra keys
try add("missing-id", text(#"{"imageElements":[]}"#), "error", ["the required key \"id\" is missing"])
try add(
    "missing-transform", text(card(images: #"[{"imageFilename":"x"}]"#)), "error",
    ["imageElements[0]: the required key \"transform\" is missing"])
try add(
    "missing-offset", text(card(images: #"[{"transform":{"size":[1,1],"rotation":{"degrees":0}}}]"#)), "error",
    ["the required key \"offset\" is missing"])
try add(
    "missing-text-font", text(card(texts: #"[{"transform":\#(t),"text":"a","textColor":[0,0,0,1]}]"#)), "error",
    ["the required key \"textFont\" is missing"])
try add(
    "extra-keys-accepted",
    text(
        #"{"id":"1A2B3C4D-0000-4000-8000-00000000C0DE","future":{"x":[1,2]},"backgroundColor":[1,1,1,1],"imageElements":[],"textElements":[{"transform":{"size":[400,300],"rotation":{"degrees":0,"axis":"z"},"offset":[0,0],"scale":2},"text":"ok","textColor":[0,0,0,1],"textFont":"Gill Sans","shadow":true}]}"#
    ), "renders", [])

// MARK: Numbers
try add(
    "nan-as-string", text(card(background: #"[1,"NaN",0,1]"#)), "error",
    ["backgroundColor[1]: expected a number, found the string \"NaN\""])
try add(
    "infinity-as-string", text(card(images: #"[{"transform":{"size":["Infinity",1],"rotation":{"degrees":0},"offset":[0,0]}}]"#)),
    "error", ["expected a number, found the string \"Infinity\""])
try add("nan-bare", text(card(background: "[1,NaN,0,1]")), "error", ["not valid JSON"])
try add(
    "number-1e308-size", text(card(images: #"[{"transform":{"size":[1e308,1],"rotation":{"degrees":0},"offset":[0,0]}}]"#)),
    "error", ["beyond the coordinate limit"])
try add(
    "number-1e308-rotation", text(card(images: #"[{"transform":{"size":[1,1],"rotation":{"degrees":1e308},"offset":[0,0]}}]"#)),
    "error", ["a rotation of 1e+308 degrees is beyond the limit"])
try add("number-1e308-colour-clamped", text(card(background: "[1e308,-1e308,0.5,1]")), "renders", [])
try add("number-1e999", text(card(background: "[1e999,0,0,1]")), "error", ["too large to represent (not finite)"])
try add(
    "number-huge-literal", text(card(background: "[" + String(repeating: "9", count: 500) + ",0,0,1]")), "error",
    ["a number literal longer than 400 characters"])
try add(
    "size-negative",
    text(card(images: #"[{"transform":{"size":[-400,300],"rotation":{"degrees":0},"offset":[0,0]},"imageFilename":"IMG"}]"#)),
    "renders", ["has no area"])
try add(
    "size-zero",
    text(
        card(
            texts:
                #"[{"transform":{"size":[0,0],"rotation":{"degrees":0},"offset":[0,0]},"text":"x","textColor":[0,0,0,1],"textFont":"x"}]"#
        )), "renders", ["has no area"])
try add(
    "drawing-size-negative", document: "d.drawing",
    text(
        #"{"version":1,"canvas":{"size":[100,100]},"graphics":[{"kind":"rectangle","transform":{"center":[0,0],"size":[-5,5]}}]}"#
    ), "error", ["a size cannot be negative"])
try add(
    "drawing-canvas-zero", document: "d.drawing", text(#"{"version":1,"canvas":{"size":[0,100]},"graphics":[]}"#), "error",
    ["the canvas size must be positive"])

// MARK: Size and depth
try add(
    "huge-array", text(card(images: "[" + Array(repeating: #"{"transform":\#(t)}"#, count: 10_001).joined(separator: ",") + "]")),
    "error", ["10001 image elements, over the limit of 10000"])
try add(
    "nesting-100000-deep", text(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)), "error",
    ["nesting deeper than the limit of 64 levels"])
var groups = #"{"kind":"rectangle","transform":{"center":[0,0],"size":[1,1]}}"#
for _ in 0..<20 { groups = #"{"kind":"group","transform":{"center":[0,0],"size":[1,1]},"children":[\#(groups)]}"# }
try add(
    "drawing-groups-20-deep", document: "d.drawing", text(#"{"version":1,"canvas":{"size":[10,10]},"graphics":[\#(groups)]}"#),
    "error", ["groups nested deeper than 16 levels"])
try add(
    "string-2mb",
    text(
        card(
            texts: #"[{"transform":\#(t),"text":""# + String(repeating: "a", count: (1 << 20) + 16)
                + #"","textColor":[0,0,0,1],"textFont":"x"}]"#)), "error", ["a string longer than 1048576 bytes"])
try add(
    "duplicate-keys", text(#"{"id":"a","imageElements":[],"imageElements":[]}"#), "error",
    ["the key \"imageElements\" appears twice"])
try add(
    "drawing-future-version", document: "d.drawing", text(#"{"version":99,"canvas":{"size":[1,1]},"graphics":[]}"#), "error",
    ["written by a newer Easel"])
try add(
    "drawing-path-nan", document: "d.drawing",
    text(
        #"{"version":1,"canvas":{"size":[10,10]},"graphics":[{"kind":"path","elements":[["move",0,"NaN"]],"transform":{"center":[0,0],"size":[1,1]}}]}"#
    ), "error", ["expected a number, found the string \"NaN\""])

// MARK: Image names that try to leave the folder
func imageCard(_ name: String) -> [UInt8] { text(card(images: #"[{"transform":\#(t),"imageFilename":\#(name)}]"#)) }
try add("image-dot-dot", imageCard(#""..\/..\/secret""#), "renders", ["contains a path separator"])
try add("image-slash", imageCard(#""sub/IMG""#), "renders", ["contains a path separator"])
try add("image-absolute", imageCard(#""/etc/passwd""#), "renders", ["contains a path separator"])
try add("image-nul", imageCard(#""IMG\u0000.png""#), "renders", ["contains a NUL byte"])
try add("image-dot-dot-alone", imageCard("\"..\""), "renders", ["is not a file name"])
try add("image-backslash", imageCard(#""..\\secret""#), "renders", ["contains a path separator"])
try add("image-symlink-outside", imageCard(#""LINK""#), "renders", ["symbolic link that leads outside"])
try FileManager.default.createSymbolicLink(
    atPath: root.appendingPathComponent("image-symlink-outside/LINK").path, withDestinationPath: "/etc/hostname")
try add("image-symlink-dot-dot", imageCard(#""LINK""#), "renders", ["symbolic link that leads outside"])
try FileManager.default.createSymbolicLink(
    atPath: root.appendingPathComponent("image-symlink-dot-dot/LINK").path, withDestinationPath: "../empty/card.rwcard")
try add("image-is-a-folder", imageCard(#""FOLDER""#), "renders", ["is not a regular file"])
try FileManager.default.createDirectory(
    at: root.appendingPathComponent("image-is-a-folder/FOLDER"), withIntermediateDirectories: true)
try write(text("keep"), "image-is-a-folder/FOLDER/.keep")

// MARK: Images that are not good PNGs
let good = try PNGEncoder.encode(try RasterImage(width: 40, height: 30))
var badCRC = good
badCRC[30] ^= 0xFF
try add("png-corrupt", imageCard(#""IMG""#), "renders", ["corrupt PNG"], files: ["IMG": badCRC])
try add("png-truncated", imageCard(#""IMG""#), "renders", ["truncated PNG"], files: ["IMG": Array(good.prefix(good.count / 2))])
try add("png-zero-bytes", imageCard(#""IMG""#), "renders", ["the file is empty"], files: ["IMG": []])
// JPEG decoder bombs (the red team's: a progressive photo of thousands of scans; one whose
// coefficient buffers alone would be 294 MB), made from the photo fixtures.
let photos = URL(fileURLWithPath: "Tests/EaselRenderTests/Images")
let manyScans = [UInt8](try Data(contentsOf: photos.appendingPathComponent("scans-98.jpg")))
let lastScan = manyScans.indices.last { manyScans[$0] == 0xFF && manyScans[$0 + 1] == 0xDA }!
var scanBomb = Array(manyScans.dropLast(2))
for _ in 0..<300 { scanBomb += manyScans[lastScan..<(manyScans.count - 2)] }
try add(
    "jpeg-scan-bomb", imageCard(#""IMG""#), "renders", ["the file has more than 100 scans"],
    files: ["IMG": scanBomb + [0xFF, 0xD9]])
try add(
    "jpeg-coefficients-294mb", imageCard(#""IMG""#), "renders", ["of the decoder's own memory besides its pixels"],
    files: ["IMG": [UInt8](try Data(contentsOf: photos.appendingPathComponent("progressive-claims-7000.jpg")))])
func ihdr(width: UInt32, height: UInt32) -> [UInt8] {
    func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c >> 1) ^ (c & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~c
    }
    let body = text("IHDR") + be(width) + be(height) + [8, 6, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + body + be(crc(body))
}
try add(
    "png-claims-100000x100000", imageCard(#""IMG""#), "renders", ["the image is 100000x100000 pixels, over the limit"],
    files: ["IMG": ihdr(width: 100_000, height: 100_000) + Array(good.suffix(from: 33))])
try add(
    "png-zero-width", imageCard(#""IMG""#), "renders", ["corrupt PNG"],
    files: ["IMG": ihdr(width: 0, height: 10) + Array(good.suffix(from: 33))])
try add("png-not-png", imageCard(#""IMG""#), "renders", ["not a PNG image"], files: ["IMG": text("GIF89a this is not a PNG")])
try add("png-missing", imageCard(#""IMG""#), "renders", ["is missing from"])

try add(
    "png-text-chunk-claims-2gb", imageCard(#""IMG""#), "renders", ["truncated PNG"],
    files: ["IMG": Array(good.prefix(33)) + [0x7F, 0xFF, 0x00, 0x00] + text("tEXtabc")])

// MARK: Budgets (each within the format's limits, over what one document may cost)
func drawing(_ graphics: String) -> [UInt8] {
    text(#"{"version":1,"canvas":{"size":[800,600]},"graphics":[\#(graphics)]}"#)
}
let frame = #""transform":{"center":[400,300],"size":[700,500]}"#
var wiggle = #"["move",0,0]"#
for i in 0..<6000 { wiggle += #",["line",\#(i % 2),\#(Double(i) / 6000)]"# }
try add(
    "budget-path-6000-elements", document: "d.drawing",
    drawing(#"{"kind":"path","elements":[\#(wiggle)],\#(frame),"fill":[0,0,0,1]}"#),
    "renders", ["over the budget of 4000; it is not drawn"])
try add(
    "budget-dash-too-fine", document: "d.drawing",
    drawing(#"{"kind":"line","from":[0,0],"to":[1,1],\#(frame),"stroke":{"color":[0,0,0,1],"width":1,"dash":[0.001]}}"#),
    "renders", ["over the budget of 100000; the stroke is drawn solid"])
try add(
    "budget-dash-1e-300", document: "d.drawing",
    drawing(#"{"kind":"line","from":[0,0],"to":[1,1],\#(frame),"stroke":{"color":[0,0,0,1],"width":1,"dash":[1e-300]}}"#),
    "renders", ["more than a trillion dashes, over the budget of 100000; the stroke is drawn solid"])
try add(
    "number-subnormal-sizes", document: "d.drawing",
    drawing(
        #"{"kind":"star","points":5,"innerRatio":5e-324,"transform":{"center":[5e-324,-5e-324],"size":[5e-324,5e-324],"rotation":-5e-324},"stroke":{"color":[0,0,0,1],"width":5e-324,"dash":[5e-324,1e-300]}}"#
    ), "renders", [])
try add(
    "budget-font-size-100000", document: "d.drawing",
    drawing(#"{"kind":"text","text":"Hello","fontSize":100000,\#(frame),"fill":[0,0,0,1]}"#), "renders",
    ["over the budget of 32767; it is not drawn"])
try add(
    "budget-combining-marks", document: "d.drawing",
    drawing(#"{"kind":"text","text":"e\#(String(repeating: "\\u0301", count: 100))",\#(frame)}"#), "error",
    ["a character of 101 code points"])
try add(
    "budget-frame-1000000", imageCard(#""GONE""#).replacing(text(#""size":[400,300]"#), with: text(#""size":[1000000,1000000]"#)),
    "renders", ["is missing from"])

// MARK: Reads and prints that must stay inside
try add(
    "package-json-links-outside", document: "art.drawing/drawing.json.unused", text("{}"), "error",
    ["must contain drawing.json as a file of its own"])
try FileManager.default.removeItem(at: root.appendingPathComponent("package-json-links-outside/art.drawing/drawing.json.unused"))
try write(drawing(""), "package-json-links-outside/outside.json")
try FileManager.default.createSymbolicLink(
    atPath: root.appendingPathComponent("package-json-links-outside/art.drawing/drawing.json").path,
    withDestinationPath: "../outside.json")
expectations[expectations.count - 1].document = "art.drawing"
try add(
    "text-control-characters",
    text(
        card(
            texts:
                #"[{"transform":\#(t),"text":"Hi\u001b]0;pwned\u0007\u001b[2J\rforged\nline","textColor":[0,0,0,1],"textFont":"Font\u001b[31m"}]"#
        )),
    "renders", ["no font is mapped for \"Font\u{1B}[31m\""])

let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
try encoder.encode(expectations).write(to: root.appendingPathComponent("expectations.json"))
print("wrote \(expectations.count) cases to \(root.path)")
