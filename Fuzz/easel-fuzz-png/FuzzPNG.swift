// libFuzzer target for PNG decoding through the libpng shim: any bytes give an image or a
// typed error, the pixel limit holds before allocating, and whatever decodes re-encodes to
// the same pixels; Easel's own reader and libpng agree on every file. Run with
// Fuzz/fuzz.sh png SECONDS.
import EaselFuzzProperties

@main
struct FuzzPNG {
    static func main() {
        FuzzDriver.main(target: "png") { FuzzProperties.pngRoundTrip($0) ?? FuzzProperties.ownPNGReaderAgreesWithLibpng($0) }
    }
}
