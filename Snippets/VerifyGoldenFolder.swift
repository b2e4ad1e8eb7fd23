// Verify a folder against its goldens from a program, as `easel golden verify` does.
import EaselGolden
import Foundation

let suite = GoldenSuite(documents: URL(fileURLWithPath: "Docs"), goldens: URL(fileURLWithPath: "Goldens"))
let run = try suite.check(report: URL(fileURLWithPath: "golden-report"))  // rendered as recorded; a report to review
for failure in run.failures { print(failure.golden, failure.message ?? "") }
print(run.summary)  // "3 of 4 documents match their goldens"
