import Foundation

/// The entry point of Easel's fuzz targets. Built with -DFUZZING (Fuzz/fuzz.sh), it
/// hands control to libFuzzer (linked without its own main, since SwiftPM owns the
/// executable's), which calls `property` on every input and treats a violation as a crash.
/// In ordinary builds it says how to run the target.
public enum FuzzDriver {
    /// libFuzzer calls back through a C function pointer, which cannot capture: the
    /// property is kept here for the process's one fuzzing run.
    nonisolated(unsafe) static var property: ([UInt8]) -> String? = { _ in nil }

    public static func main(target: String, property: @escaping ([UInt8]) -> String?) -> Never {
        #if FUZZING
            Self.property = property
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(
                LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                    if let violation = FuzzDriver.property(Array(UnsafeBufferPointer(start: data, count: size))) {
                        fatalError(violation)
                    }
                    return 0
                })
        #else
            print("easel-fuzz-\(target) is a libFuzzer target: run Fuzz/fuzz.sh \(target) SECONDS")
            exit(0)
        #endif
    }
}

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt
#endif
