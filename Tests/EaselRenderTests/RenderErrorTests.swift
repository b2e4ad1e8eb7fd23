import EaselCairo
import EaselDocuments
import EaselGeometry
import EaselRender
import Foundation
import Testing

/// Each way rendering can fail has its own case, and its message names the document.
@Suite("Render errors")
struct RenderErrorTests {
    @Test func aGroupEndedThatNeverBeganNamesTheDocument() throws {
        var scene = Scene(canvasSize: Size(width: 10, height: 10), operations: [.endGroup])
        scene.file = "/docs/art.drawing"
        #expect { try CairoSceneRenderer.rasterize(scene, pixelWidth: 10, pixelHeight: 10) } throws: { error in
            guard case RenderError.unbalancedGroups(let file, _) = error else { return false }
            return file == "/docs/art.drawing" && "\(error)" == "/docs/art.drawing: a scene ends a group it never began"
        }
    }

    @Test func aGroupLeftOpenNamesTheDocument() throws {
        var scene = Scene(canvasSize: Size(width: 10, height: 10), operations: [.beginGroup(opacity: 0.5, clip: nil)])
        scene.file = "/docs/art.drawing"
        #expect { try CairoSceneRenderer.vectorFile(scene, format: .pdf, width: 10, height: 10) } throws: { error in
            "\(error)" == "/docs/art.drawing: a scene leaves 1 group(s) open"
        }
    }

    @Test func aSizeThatCannotBeDrawnIsAnInvalidSize() throws {
        #expect { try OutputSize.scale(0).pixelSize(for: Size(width: 100, height: 100)) } throws: { error in
            guard case RenderError.invalidSize(let message) = error else { return false }
            return message == "the scale must be a positive number, not 0.0"
        }
        #expect { try OutputSize.width(10).pixelSize(for: Size(width: 100_000, height: 1)) } throws: { error in
            guard case RenderError.invalidSize(let message) = error else { return false }
            return message.contains("less than one pixel")
        }
    }

    @Test func anImageOverTheLimitIsACairoLimitError() throws {
        #expect { try OutputSize.width(40_000).pixelSize(for: Size(width: 1, height: 1)) } throws: { error in
            guard case RenderError.cairo(.tooLarge(40_000, 40_000, _)) = error else { return false }
            return true
        }
    }
}
