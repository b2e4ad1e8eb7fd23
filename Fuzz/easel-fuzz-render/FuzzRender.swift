// libFuzzer target for the whole drawing path with the budgets on: decode a drawing, lower
// it and rasterise it small. Never a crash, a hang or unbounded memory; a render error is
// allowed only as a typed error with a message. Run with Fuzz/fuzz.sh render SECONDS.
import EaselFuzzProperties

@main
struct FuzzRender {
    static func main() { FuzzDriver.main(target: "render", property: FuzzProperties.drawingRenders) }
}
