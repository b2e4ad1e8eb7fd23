// Colours from text throw with the reason; literals cannot fail.
import EaselDocuments
import EaselGeometry

let coral = try Color(hex: "#FF595E")
let teal = Color(rgb: 0x2A9D8F)
do {
    _ = try Color(parsing: "tomatoe")
} catch {
    print(error)  // "tomatoe" is not a colour: expected #RRGGBB, #RRGGBBAA, a CSS colour name, ...
}
print(coral.hex, teal.hex)
