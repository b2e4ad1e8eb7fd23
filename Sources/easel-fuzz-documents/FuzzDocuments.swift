// libFuzzer target for document decoding (cards and drawings). Built by
// Tests/Fuzz/fuzz.sh with coverage instrumentation, AddressSanitizer, libFuzzer and
// -DFUZZING; in ordinary builds it is a stub that says how to run it.
//
// Properties checked on every input: decoding never crashes, hangs or allocates without
// bound (the sanitizers and libFuzzer's limits watch that), and whatever decodes also
// encodes and decodes back to an equal document.
import Foundation
import EaselDocuments

func fuzzDocuments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var warnings: [DocumentWarning] = []
    if let card = try? CardDecoder.decode(bytes, file: "fuzz.rwcard", warnings: &warnings) {
        guard let encoded = try? CardEncoder.encode(card, file: "fuzz.rwcard") else { fatalError("a decoded card cannot be encoded") }
        let again = try? CardDecoder.decode(encoded, file: "fuzz.rwcard", warnings: &warnings)
        if again != card { fatalError("card round trip changed the card") }
    }
    if let drawing = try? DrawingDecoder.decode(bytes, file: "fuzz.drawing", warnings: &warnings) {
        let again = try? DrawingDecoder.decode(DrawingEncoder.encode(drawing), file: "fuzz.drawing", warnings: &warnings)
        if again != drawing { fatalError("drawing round trip changed the drawing") }
    }
    return 0
}

@main
struct FuzzDocumentsMain {
    static func main() {
        #if FUZZING
        // libFuzzer without its own main (SwiftPM owns this executable's main).
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzDocuments(data, size) })
        #else
        print("easel-fuzz-documents is a libFuzzer target: run Tests/Fuzz/fuzz.sh documents SECONDS")
        #endif
    }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#endif
