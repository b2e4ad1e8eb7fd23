import Testing
import Foundation
@testable import EaselGeometry

/// Every library shape against the geometry table of docs/formats.md, at two
/// rectangles (one wide at the origin, one tall and offset), and path equality mapping each
/// shape back to its index.
@Suite("Clip-shape library")
struct ClipShapeLibraryTests {
    static let wide = Rect(x: 0, y: 0, width: 200, height: 100)
    static let tall = Rect(x: 10, y: 20, width: 300, height: 400)

    func points(_ shape: LibraryShape, _ rect: Rect) -> [Point] {
        shape.path(in: rect).elements.compactMap(\.points.last)
    }

    func close(_ a: Point, _ b: Point, _ message: String) {
        #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9, "\(message): \(a) vs \(b)")
    }

    @Test func theOrderIsTheApps() {
        #expect(
            LibraryShape.allCases.map(\.name) == [
                "circle", "rectangle", "roundedRectangle", "heart", "lens", "chevron",
                "cone", "cloud", "diamond", "hexagon", "octagon",
            ])
    }

    @Test(arguments: [wide, tall]) func circleHasTheShorterSideAsDiameterCentred(rect: Rect) throws {
        let d = min(rect.width, rect.height)
        let path = LibraryShape.circle.path(in: rect)
        let bounds = try #require(path.controlPointBounds)
        close(bounds.center, rect.center, "centre")
        #expect(abs(bounds.width - d) < 1e-9 && abs(bounds.height - d) < 1e-9)
        close(points(.circle, rect)[0], Point(x: rect.midX + d / 2, y: rect.midY), "start at the right")
    }

    @Test(arguments: [wide, tall]) func rectangleAndRoundedRectangle(rect: Rect) {
        #expect(
            points(.rectangle, rect).prefix(4) == [
                Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
                Point(x: rect.maxX, y: rect.maxY), Point(x: rect.minX, y: rect.maxY),
            ])
        let rounded = points(.roundedRectangle, rect)
        #expect(rounded[0] == Point(x: rect.minX + 25, y: rect.minY), "corner radius 25 in absolute units")
        #expect(rounded[1] == Point(x: rect.maxX - 25, y: rect.minY))
        #expect(rounded[2] == Point(x: rect.maxX, y: rect.minY + 25), "a quarter arc to the right side")
    }

    @Test(arguments: [wide, tall]) func heart(rect: Rect) {
        let (x, y, w, h) = (rect.minX, rect.minY, rect.width, rect.height)
        let elements = LibraryShape.heart.path(in: rect).elements
        #expect(elements[0] == .move(to: Point(x: x + w / 2, y: y + h)))
        #expect(
            elements[1]
                == .curve(
                    to: Point(x: x, y: y + 0.25 * h), control1: Point(x: x + 0.35 * w, y: y + 0.9 * h),
                    control2: Point(x: x, y: y + 0.5 * h)))
        // Two half-circle lobes through the top (-90 degrees), two quarter segments each.
        let ends = points(.heart, rect)
        close(ends[2], Point(x: x + 0.25 * w, y: y + 0.25 * h - 0.25 * w), "top of the left lobe")
        close(ends[3], Point(x: x + 0.5 * w, y: y + 0.25 * h), "between the lobes")
        close(ends[4], Point(x: x + 0.75 * w, y: y + 0.25 * h - 0.25 * w), "top of the right lobe")
        close(ends[5], Point(x: x + w, y: y + 0.25 * h), "right end")
        #expect(
            elements[6]
                == .curve(
                    to: Point(x: x + w / 2, y: y + h), control1: Point(x: x + w, y: y + 0.5 * h),
                    control2: Point(x: x + 0.65 * w, y: y + 0.9 * h)))
        #expect(elements[7] == .closeSubpath)
        #expect(elements.count == 8, "no stray joining lines")
    }

    @Test(arguments: [wide, tall]) func lensChevronDiamond(rect: Rect) {
        let (x, y, w, h) = (rect.minX, rect.minY, rect.width, rect.height)
        #expect(
            LibraryShape.lens.path(in: rect).elements == [
                .move(to: Point(x: x, y: y + h / 2)),
                .quadCurve(to: Point(x: x + w, y: y + h / 2), control: Point(x: x + w / 2, y: y)),
                .quadCurve(to: Point(x: x, y: y + h / 2), control: Point(x: x + w / 2, y: y + h)),
                .closeSubpath,
            ])
        #expect(
            points(.chevron, rect).prefix(6) == [
                Point(x: x, y: y), Point(x: x + 0.75 * w, y: y), Point(x: x + w, y: y + 0.5 * h),
                Point(x: x + 0.75 * w, y: y + h), Point(x: x, y: y + h), Point(x: x + 0.25 * w, y: y + 0.5 * h),
            ])
        #expect(
            points(.diamond, rect).prefix(4) == [
                Point(x: x + w / 2, y: y), Point(x: x + w, y: y + h / 2),
                Point(x: x + w / 2, y: y + h), Point(x: x, y: y + h / 2),
            ])
    }

    @Test(arguments: [wide, tall]) func coneArcsOverTheTop(rect: Rect) {
        let (x, y, w, h) = (rect.minX, rect.minY, rect.width, rect.height)
        let r = min(w, h) / 2
        let ends = points(.cone, rect)
        #expect(ends[0] == Point(x: x + w / 2 + r, y: y + h / 2), "starts at 0 degrees")
        #expect(ends[1] == Point(x: x + w / 2, y: y + h / 2 - r), "passes -90 degrees: straight up")
        #expect(ends[2] == Point(x: x + w / 2 - r, y: y + h / 2), "ends at -180 degrees")
        #expect(ends[3] == Point(x: x + w / 2, y: y + h), "line to the bottom centre")
        #expect(ends[4] == Point(x: x + w / 2 + r, y: y + h / 2))
    }

    @Test(arguments: [wide, tall]) func cloud(rect: Rect) {
        let (x, y, w, h) = (rect.minX, rect.minY, rect.width, rect.height)
        let elements = LibraryShape.cloud.path(in: rect).elements
        #expect(elements[0] == .move(to: Point(x: x + 0.2 * w, y: y + 0.2 * h)))
        #expect(
            elements[1] == .quadCurve(to: Point(x: x + 0.6 * w, y: y + 0.1 * h), control: Point(x: x + 0.32 * w, y: y - 0.12 * h))
        )
        #expect(
            elements[3] == .quadCurve(to: Point(x: x + 0.9 * w, y: y + 0.6 * h), control: Point(x: x + 1.1 * w, y: y + 0.35 * h)))
        #expect(
            elements[6] == .quadCurve(to: Point(x: x + 0.2 * w, y: y + 0.2 * h), control: Point(x: x - 0.15 * w, y: y + 0.45 * h))
        )
        #expect(elements.count == 8)
    }

    @Test(arguments: [wide, tall]) func polygonsAreCentredAtRR(rect: Rect) {
        let r = min(rect.width, rect.height) / 2
        for (shape, sides) in [(LibraryShape.hexagon, 6), (.octagon, 8)] {
            let vertices = Array(points(shape, rect).prefix(sides))
            for (i, vertex) in vertices.enumerated() {
                let theta = 2 * Double.pi * Double(i) / Double(sides)
                close(vertex, Point(x: rect.minX + r * cos(theta) + r, y: rect.minY + r * sin(theta) + r), "\(shape) vertex \(i)")
            }
        }
    }

    @Test func pathEqualityMatchesEveryShapeBackToItsIndex() {
        for shape in LibraryShape.allCases {
            #expect(LibraryShape.matching(shape.path(in: LibraryShape.matchingRect)) == shape)
        }
        // The same shape laid out in another rectangle is a different path.
        #expect(LibraryShape.matching(LibraryShape.heart.path(in: Rect(x: 0, y: 0, width: 100, height: 101))) == nil)
        var triangle = Path()
        triangle.addPolygon([Point(x: 50, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100)])
        #expect(LibraryShape.matching(triangle) == nil)
    }

    @Test func namesParseLeniently() {
        #expect(LibraryShape(name: "rounded-rectangle") == .roundedRectangle)
        #expect(LibraryShape(name: "HEART") == .heart)
        #expect(LibraryShape(name: "triangle") == nil)
    }
}
