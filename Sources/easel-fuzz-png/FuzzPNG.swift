// libFuzzer target for PNG decoding through the libpng shim. Built by Tests/Fuzz/fuzz.sh
// with -sanitize=fuzzer,address and -DFUZZING (the C shim instrumented too).
//
// Properties: decoding any bytes gives an image or a typed error, never a crash, and
// refuses images over its pixel limit before allocating; a decoded image encodes and
// decodes back to the same pixels.
import Foundation
import EaselFuzzProperties

func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let violation = FuzzProperties.pngRoundTrip(bytes) { fatalError(violation) }
    return 0
}

@main
struct FuzzPNGMain {
    static func main() {
        #if FUZZING
        // libFuzzer without its own main (SwiftPM owns this executable's main).
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzPNG(data, size) })
        #else
        print("easel-fuzz-png is a libFuzzer target: run Tests/Fuzz/fuzz.sh png SECONDS")
        #endif
    }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#endif
