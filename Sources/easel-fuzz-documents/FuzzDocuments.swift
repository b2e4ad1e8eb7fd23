// libFuzzer target for document decoding (cards and drawings). Built by
// Tests/Fuzz/fuzz.sh with coverage instrumentation, AddressSanitizer, libFuzzer and
// -DFUZZING; in ordinary builds it is a stub that says how to run it.
//
// Properties checked on every input: decoding never crashes, hangs or allocates without
// bound (the sanitizers and libFuzzer's limits watch that), and whatever decodes also
// encodes and decodes back to an equal document.
import Foundation
import EaselFuzzProperties

func fuzzDocuments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = FuzzProperties.documentRoundTrip(bytes) { fatalError(violation) }
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
