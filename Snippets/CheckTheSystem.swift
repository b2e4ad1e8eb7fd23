// What `easel doctor` checks, from a program: the C libraries and every font file Easel loads.
import EaselCairo  // product "EaselCairo"

let report = SystemCheck.run()
for problem in report.problems {
    print("missing: \(problem.name): \(problem.detail) (Debian package \(problem.debianPackage))")
}
if let hint = report.installHint { print("to install: sudo \(hint)") }
