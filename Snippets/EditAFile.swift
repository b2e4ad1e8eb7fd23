// Edit a document file as the CLI does: a lock, the undo history in the state folder, an atomic save.
import EaselEditing  // product "EaselEditing"
import EaselGeometry
import Foundation

var editor = try DocumentEditor(opening: URL(fileURLWithPath: "art.drawing"))
var request = ElementRequest(kind: "heart", documentName: "art.drawing")  // the kinds of `easel add`
request.style.center = Point(x: 120, y: 80)
request.style[.shadowBlur] = .number(6)  // any property of the table, ElementProperty.all
let added = try editor.add(request)  // AddedElement(index:kind:)
try editor.perform { try $0.move(added.index, by: Point(x: 10, y: 0)) }  // any verb, one undo step each
try editor.save()  // `easel undo art.drawing` undoes it
