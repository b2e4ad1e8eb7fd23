import Foundation
import Testing

/// `easel doctor` on this machine (which `make deps` set up): everything present, exit 0,
/// and the JSON a script reads.
@Suite("easel doctor")
struct DoctorCommandTests {
    @Test func readyOnThisMachine() throws {
        let s = CLIScratch()
        let result = try s.ok(["doctor"])
        for library in ["cairo", "libpng", "FreeType", "HarfBuzz", "FriBidi", "libwebp"] {
            #expect(result.stdout.contains("ok      \(library): "), "\(result.stdout)")
        }
        #expect(result.stdout.contains("fonts: "), "\(result.stdout)")
        #expect(result.stderr.contains("easel: ready"), "\(result.stderr)")
    }

    @Test func jsonListsEveryCheckWithItsPackages() throws {
        let s = CLIScratch()
        let result = try s.ok(["doctor", "--json"])
        struct Check: Decodable { var name: String, ok: Bool, debianPackage: String }
        struct Output: Decodable { var ok: Bool, checks: [Check] }
        let output = try JSONDecoder().decode(Output.self, from: Data(result.stdout.utf8))
        #expect(output.ok)
        #expect(output.checks.count > 50)
        #expect(output.checks.first { $0.name == "font DejaVuSans.ttf" }?.debianPackage == "fonts-dejavu-core")
        #expect(output.checks.first { $0.name == "cairo" }?.debianPackage == "libcairo2")
    }
}
