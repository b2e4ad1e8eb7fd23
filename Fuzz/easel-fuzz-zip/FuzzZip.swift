// libFuzzer target for zip bodies (`POST /api/render` with application/zip): any bytes are
// read as the server reads them, through the structure check and ZIPFoundation, and give
// the document and images or a 400/413 problem that says why. Never a trap (issue 36: one
// ended `easel serve`), a hang or unbounded memory. Run with Fuzz/fuzz.sh zip SECONDS.
import EaselFuzzProperties

@main
struct FuzzZip {
    static func main() { FuzzDriver.main(target: "zip", property: FuzzProperties.zipReads) }
}
