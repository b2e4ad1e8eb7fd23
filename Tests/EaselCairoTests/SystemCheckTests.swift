import EaselCairo
import Foundation
import Testing

/// `easel doctor`'s checks: by use, and naming the package for anything missing.
@Suite("System check")
struct SystemCheckTests {
    @Test func thisMachineHasEverything() {
        let report = SystemCheck.run()
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.installHint == nil)
        let names = report.items.map(\.name)
        for library in ["cairo", "libpng", "FreeType", "HarfBuzz", "FriBidi", "libwebp"] {
            #expect(names.contains(library))
        }
        #expect(report.items.first { $0.name == "cairo" }?.detail.contains("SVG and PDF") == true)
        // Every font file the map can load is checked, each once.
        #expect(names.filter { $0.hasPrefix("font ") }.count == FontMap.allFiles.count)
        #expect(Set(FontMap.allFiles).count == FontMap.allFiles.count)
        #expect(FontMap.allFiles.count >= 50)
    }

    @Test func everyFontFileNamesARealDebianPackageThatOwnsIt() throws {
        // dpkg knows which package installed each file ("pkg[, pkg]: path", one line each;
        // asked once for every file): the map must name that one.
        let dpkg = Process()
        dpkg.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg-query")
        dpkg.arguments = ["-S"] + FontMap.allFiles.map(\.path)
        let output = Pipe()
        dpkg.standardOutput = output
        dpkg.standardError = FileHandle.nullDevice
        try dpkg.run()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        dpkg.waitUntilExit()
        var owners: [String: [String]] = [:]
        for line in lines where !line.hasPrefix("diversion ") {
            guard let separator = line.range(of: ": ") else { continue }
            owners[String(line[separator.upperBound...]), default: []] += line[..<separator.lowerBound]
                .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        for file in FontMap.allFiles {
            let package = file.packages.debian
            #expect(!package.hasPrefix("(not"), "\(file.path) has no package")
            let names = owners[file.path] ?? []
            #expect(names.contains(package), "\(file.path): dpkg says \(names), the map says \(package)")
        }
    }

    @Test func aMissingFontNamesItsPackageAndTheInstallCommand() {
        let missing = FontMap.FontFile("/usr/share/fonts/truetype/quicksand/Quicksand-Missing.ttf")
        let report = SystemCheck.run(fonts: [missing, FontMap.defaultSans])
        #expect(report.problems.map(\.name) == ["font Quicksand-Missing.ttf"])
        #expect(report.problems.first?.debianPackage == "fonts-quicksand")
        #expect(report.installHint == "apt-get install fonts-quicksand")
        let message = FontError.missingFile(missing.path).description
        #expect(message.contains("apt-get install fonts-quicksand"))
        #expect(!message.contains("make deps"))
    }
}
