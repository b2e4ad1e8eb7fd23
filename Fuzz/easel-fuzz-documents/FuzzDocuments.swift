// libFuzzer target for document decoding (cards and drawings): decoding never crashes,
// hangs or allocates without bound, and whatever decodes round-trips equal.
// Run with Fuzz/fuzz.sh documents SECONDS.
import EaselFuzzProperties

@main
struct FuzzDocuments {
    static func main() { FuzzDriver.main(target: "documents", property: FuzzProperties.documentRoundTrip) }
}
