// Paths, transforms and the Cards app's clip shapes.
import EaselGeometry

var path = Path()
path.addRoundedRect(Rect(x: 0, y: 0, width: 100, height: 60), cornerRadius: 10)
let turned = path.applying(.rotation(degrees: 30).concatenating(.translation(x: 50, y: 0)))
if let bounds = turned.controlPointBounds { print(bounds) }

let heart = LibraryShape.heart.path(in: LibraryShape.matchingRect)
print(LibraryShape.matching(heart) == .heart)  // true; a card stores its index, 3
