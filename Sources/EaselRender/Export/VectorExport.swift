import CEaselCairo

/// Renders scenes to SVG and PDF through cairo's vector surfaces, streamed into memory.
enum VectorExport {
    /// Collects what cairo writes.
    private final class ByteSink {
        var bytes: [UInt8] = []
    }

    private static let writeToSink: cairo_write_func_t = { closure, data, length in
        let sink = Unmanaged<ByteSink>.fromOpaque(closure!).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }

    static func render(_ scene: Scene, format: OutputFormat, width: Int, height: Int, imageFilter: ImageFilter) throws(RenderError) -> [UInt8] {
        let sink = ByteSink()
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let surface: OpaquePointer
        switch format {
        case .svg:
            surface = cairo_svg_surface_create_for_stream(writeToSink, closure, Double(width), Double(height))!
            cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
            cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX)
        case .pdf:
            surface = cairo_pdf_surface_create_for_stream(writeToSink, closure, Double(width), Double(height))!
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Easel")
        case .png:
            throw .invalidSize("PNG is not a vector format")
        }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError.cairo(status, in: "creating the \(format) surface") }
        do {
            let context = try CairoContext(surface: surface, owner: nil)
            try context.concatenate(.scale(x: Double(width) / scene.canvasSize.width, y: Double(height) / scene.canvasSize.height))
            try CairoSceneRenderer.draw(scene, in: context, imageFilter: imageFilter)
        }
        cairo_surface_finish(surface)
        let finished = cairo_surface_status(surface)
        guard finished == CAIRO_STATUS_SUCCESS else { throw RenderError.cairo(finished, in: "finishing the \(format) file") }
        return withExtendedLifetime(sink) { sink.bytes }
    }
}
