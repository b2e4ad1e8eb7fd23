import EaselDocuments
import EaselGeometry
import EaselRender
import EaselSupport
import Hummingbird

/// The export options of a render request, read from its query string as `easel export`
/// reads its options: `scale`, `width`, `height`, `fit` (contain, cover, stretch), `preset`
/// (share, thumbnail), `background` (any colour Easel accepts, or none), `dpi` and `area`
/// (`x,y,w,h` in canvas units: that part of the canvas); `only` or `without` (element
/// indices, `1,3`: those elements alone on a transparent canvas, or the document without
/// them: the layers of the editor's live previews); and `rev`,
/// which the renderer ignores: a client names the revision it wants in the URL so that
/// browser caches keep versions apart. An unknown parameter is refused rather than
/// ignored: a typo must not silently give another image.
struct RenderQuery: Hashable, Sendable {
    /// Which elements are drawn: all, only some, or all but some.
    enum Elements: Hashable, Sendable {
        case all
        case only([Int])
        case without([Int])
    }

    var options: RenderOptions
    var elements: Elements = .all
    /// A canonical spelling of the options, part of the cache key and the ETag.
    var key: String

    static let parameters: Set<String> = [
        "scale", "width", "height", "fit", "preset", "background", "dpi", "area", "only", "without", "rev",
    ]

    /// At most this many indices in `only` or `without`.
    static let maxIndices = 1000

    /// `also` names parameters the caller took out of `query` itself (`format` and `kind`
    /// for `POST /api/render`), for the message that lists what render takes.
    static func parse(format: OutputFormat, query: [(key: String, value: String)], also: Set<String> = [])
        throws(Problem) -> RenderQuery
    {
        var values: [String: String] = [:]
        for (key, value) in query {
            guard parameters.contains(key) else {
                throw Problem(
                    .badRequest,
                    "unknown query parameter \(key.quotedForMessage); render takes \(parameters.union(also).sorted().joined(separator: ", "))"
                )
            }
            guard values[key] == nil else { throw Problem(.badRequest, "the query parameter \"\(key)\" is given twice") }
            values[key] = value
        }
        // Decimal digits only (Swift's own parsing would also take "0x10" as 16 and "+100" as
        // 100): a value means what it reads as. A signed one may start with a minus.
        func decimal(_ text: some StringProtocol, fraction: Bool, signed: Bool = false) -> Bool {
            let digits = signed && text.first == "-" ? text.dropFirst() : text[...]
            return digits.first.map { $0.isASCII && $0.isNumber || fraction && $0 == "." } == true
                && digits.allSatisfy { $0.isASCII && ($0.isNumber || fraction && ".eE+-".contains($0)) }
        }
        func number(_ key: String) throws(Problem) -> Double? {
            guard let text = values[key] else { return nil }
            guard decimal(text, fraction: true), let value = Double(text), value.isFinite, value > 0 else {
                throw Problem(.badRequest, "\(key) must be a positive number, not \(text.quotedForMessage)")
            }
            return value
        }
        func pixels(_ key: String) throws(Problem) -> Int? {
            guard let text = values[key] else { return nil }
            guard decimal(text, fraction: false), let value = Int(text), value > 0 else {
                throw Problem(.badRequest, "\(key) must be a positive whole number of pixels, not \(text.quotedForMessage)")
            }
            return value
        }
        let scale = try number("scale"), width = try pixels("width"), height = try pixels("height"), dpi = try number("dpi")
        let preset = values["preset"]
        // The value first: a wrong one is named as such, whatever else is missing.
        if let fit = values["fit"], !["contain", "cover", "stretch"].contains(fit) {
            throw Problem(.badRequest, "fit must be contain, cover or stretch, not \(fit.quotedForMessage)")
        }
        if [scale != nil, preset != nil, width != nil || height != nil].filter({ $0 }).count > 1 {
            throw Problem(.badRequest, "give one of scale, preset, or width/height")
        }
        if let dpi, dpi > 10_000 { throw Problem(.badRequest, "dpi must be more than 0 and at most 10000, not \(dpi)") }
        var options = RenderOptions(format: format)
        switch (scale, preset, width, height) {
        case (let s?, _, _, _): options.size = .scale(s)
        case (_, "share"?, _, _): options.size = .share
        case (_, "thumbnail"?, _, _): options.size = .thumbnail
        case (_, let other?, _, _): throw Problem(.badRequest, "preset must be share or thumbnail, not \(other.quotedForMessage)")
        case (_, _, let w?, let h?):
            switch values["fit"] ?? "contain" {
            case "contain": options.size = .fitted(width: w, height: h, fit: .contain)
            case "cover": options.size = .fitted(width: w, height: h, fit: .cover)
            default: options.size = .exact(width: w, height: h)  // "stretch", the one value left
            }
        case (_, _, let w?, nil): options.size = .width(w)
        case (_, _, nil, let h?): options.size = .height(h)
        default: options.size = .share
        }
        if values["fit"] != nil, width == nil || height == nil {
            throw Problem(.badRequest, "fit says how the canvas meets a width by height box: give both")
        }
        if let background = values["background"] {
            if background.lowercased() == "none" {
                options.background = Color(red: 0, green: 0, blue: 0, alpha: 0)
            } else if let color = try? Color(parsing: background) {
                options.background = color
            } else {
                throw Problem(
                    .badRequest,
                    "background must be a colour (#RRGGBB, a CSS name, r,g,b[,a], appColor1-7...) or none, not \(background.quotedForMessage)"
                )
            }
        }
        options.dpi = dpi
        if let area = values["area"] {
            let numbers = area.split(separator: ",", omittingEmptySubsequences: false).map {
                decimal($0, fraction: true, signed: true) ? Double($0) : nil
            }
            guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let w = numbers[2], let h = numbers[3],
                [x, y, w, h].allSatisfy(\.isFinite), w > 0, h > 0
            else {
                throw Problem(
                    .badRequest,
                    "area must be x,y,w,h in canvas units with a width and height above 0, not \(area.quotedForMessage)")
            }
            options.area = RenderOptions.Area(Rect(x: x, y: y, width: w, height: h))
        }
        func indices(_ key: String) throws(Problem) -> [Int]? {
            guard let text = values[key] else { return nil }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let numbers = parts.prefix(maxIndices + 1).compactMap { decimal($0, fraction: false) ? Int($0) : nil }
            guard !parts.isEmpty, numbers.count == parts.count, numbers.count <= maxIndices else {
                throw Problem(
                    .badRequest,
                    "\(key) takes element indices (0 or more) separated by commas, at most \(maxIndices), not \(text.quotedForMessage)"
                )
            }
            return Array(Set(numbers)).sorted()
        }
        var elements = Elements.all
        switch (try indices("only"), try indices("without")) {
        case (_?, _?): throw Problem(.badRequest, "give only or without, not both")
        case (let only?, nil):
            elements = .only(only)
            // The elements alone, on nothing: a layer laid over the rest.
            if options.background == nil { options.background = Color(red: 0, green: 0, blue: 0, alpha: 0) }
        case (nil, let without?): elements = .without(without)
        case (nil, nil): break
        }
        let key = [
            format.rawValue, "\(options.size)", options.background.map { "\($0.components)" } ?? "own",
            dpi.map { "\($0)" } ?? "72", options.area.map { "\($0)" } ?? "canvas", "\(elements)",
        ].joined(separator: "|")
        return RenderQuery(options: options, elements: elements, key: key)
    }
}
