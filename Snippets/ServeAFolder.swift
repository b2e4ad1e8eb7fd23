// easel serve as a library: the same routes, in a program of your own.
import EaselServer
import Foundation

let configuration = ServerConfiguration(folder: URL(fileURLWithPath: "cards"), port: 8080)
let server = try EaselServer(configuration: configuration)
try await server.run { port in print("listening on \(port)") }
