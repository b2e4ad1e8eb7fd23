/// Documents for tests of what is slow to draw.
public enum SlowDrawing {
    /// A drawing within every budget that still takes seconds to draw: 3,000 wide strokes of
    /// stars of 200 points (quick to read and lower, slow for cairo).
    public static let json: String = {
        let star =
            #"{"kind": "star", "points": 200, "innerRadiusRatio": 0.5, "transform": {"center": [400, 300], "size": [500, 500], "rotation": 0}, "stroke": {"color": [1, 0, 0, 1], "width": 10, "dash": [], "cap": "butt", "join": "miter"}, "opacity": 1}"#
        return
            #"{"format": "org.easel.drawing", "version": 1, "canvas": {"size": [800, 600], "background": [1, 1, 1, 1]}, "graphics": ["#
            + Array(repeating: star, count: 3000).joined(separator: ",") + "]}"
    }()
}
