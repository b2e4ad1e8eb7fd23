import CardStudio
import Foundation

// card-studio thumbnail CARD OUT.png   the card's thumbnail as PNG
// card-studio serve FOLDER [PORT]      the browser editor on http://127.0.0.1:PORT (default 8080)
let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("thumbnail", 3):
    let (png, warnings) = try CardStudio.thumbnail(of: URL(fileURLWithPath: arguments[1]))
    try Data(png).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
    for warning in warnings { print("warning: \(warning)") }
case ("serve", 2), ("serve", 3):
    let server = try CardStudio.server(
        for: URL(fileURLWithPath: arguments[1]), port: arguments.count == 3 ? Int(arguments[2]) ?? 8080 : 8080)
    try await server.run { port in print("CardStudio: http://127.0.0.1:\(port)/") }
default:
    FileHandle.standardError.write(Data("usage: card-studio thumbnail CARD OUT.png | card-studio serve FOLDER [PORT]\n".utf8))
    exit(2)
}
