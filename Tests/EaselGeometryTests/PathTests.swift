import Testing
@testable import EaselGeometry

@Suite("Path and transforms")
struct PathTests {
    @Test func pathsWithTheSameElementsAreEqual() {
        var a = Path(), b = Path()
        a.addRect(Rect(x: 1, y: 2, width: 3, height: 4))
        b.addPolygon([Point(x: 1, y: 2), Point(x: 4, y: 2), Point(x: 4, y: 6), Point(x: 1, y: 6)])
        #expect(a == b)
        b.addLine(to: Point(x: 0, y: 0))
        #expect(a != b)
    }

    @Test func untrustedElementsWithNonFinitePointsAreRefused() {
        #expect(throws: GeometryError.self) {
            try Path(validating: [.move(to: Point(x: .nan, y: 0))])
        }
        #expect(throws: GeometryError.self) {
            try Path(validating: [.move(to: .zero), .curve(to: .zero, control1: Point(x: 0, y: .infinity), control2: .zero)])
        }
    }

    @Test func controlPointBoundsTakeEveryNamedPointControlPointsIncluded() throws {
        #expect(Path().controlPointBounds == nil)
        #expect(try Path(validating: [.closeSubpath]).controlPointBounds == nil)
        let path = try Path(validating: [
            .move(to: Point(x: 5, y: 5)),
            .quadCurve(to: Point(x: 6, y: 6), control: Point(x: -3, y: 4)),
            .curve(to: Point(x: 7, y: 1), control1: Point(x: 2, y: 20), control2: Point(x: 11, y: -2)),
            .closeSubpath,
            .line(to: Point(x: 4, y: 3)),
        ])
        #expect(path.controlPointBounds == Rect(x: -3, y: -2, width: 14, height: 22))
        let point = try Path(validating: [.move(to: Point(x: 2, y: -1))])
        #expect(point.controlPointBounds == Rect(x: 2, y: -1, width: 0, height: 0))
    }

    @Test func rotationIsClockwiseOnScreen() {
        // In a y-down space, +x turned 90 degrees clockwise points down (+y).
        let p = Transform2D.rotation(degrees: 90).apply(to: Point(x: 1, y: 0))
        #expect(p == Point(x: 0, y: 1))
        let q = Transform2D.rotation(degrees: 30).apply(to: Point(x: 1, y: 0))
        #expect(abs(q.x - 0.8660254037844387) < 1e-12 && abs(q.y - 0.5) < 1e-12)
    }

    @Test func concatenationAppliesTheFirstTransformFirst() {
        let t = Transform2D.scale(x: 2, y: 3).concatenating(.translation(x: 10, y: 20))
        #expect(t.apply(to: Point(x: 1, y: 1)) == Point(x: 12, y: 23))
        let back = t.inverted!.apply(to: Point(x: 12, y: 23))
        #expect(abs(back.x - 1) < 1e-12 && abs(back.y - 1) < 1e-12)
    }

    @Test func aspectFitNeverCrops() {
        #expect(Size(width: 200, height: 100).aspectFit(in: Size(width: 400, height: 400)) == Size(width: 400, height: 200))
        #expect(Size(width: 100, height: 300).aspectFit(in: Size(width: 400, height: 300)) == Size(width: 100, height: 300))
        #expect(Size(width: 0, height: 300).aspectFit(in: Size(width: 400, height: 300)) == .zero)
    }
}
