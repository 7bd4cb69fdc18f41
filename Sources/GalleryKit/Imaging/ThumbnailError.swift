/// Why a cover could not be made into thumbnails. The build shows the placeholder and warns.
public struct ThumbnailError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong with the cover.
    public enum Reason: Sendable, Hashable {
        /// The bytes are damaged: libvips's message says where.
        case corrupt(String)
        /// No decoder recognises the bytes.
        case unsupported
        /// The header claims more pixels than `[thumbnails] max_pixels` allows, so the cover is
        /// refused before its pixels are decoded (a guard against decompression bombs).
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// A long, thin image that a fit filling the square (`crop`, `attention`) would scale to
        /// `scaledWidth`×`scaledHeight` (its short side to `size`) before cutting, more pixels than `limit`.
        case tooThin(width: Int, height: Int, size: Int, scaledWidth: Int, scaledHeight: Int, limit: Int)
        /// The encoder failed.
        case encoding(String)
        /// libvips could not be loaded or started: nothing about this cover, so the build fails
        /// rather than showing placeholders for every album.
        case libraryMissing(String)
        /// The system refused libvips a thread or memory (`ulimit -u`, a container's pids or
        /// memory limit): nothing about this cover either, so the build fails rather than
        /// publish placeholders for covers said to be damaged.
        case systemLimit(String)
    }

    /// A decoder's failure: ``Reason/systemLimit(_:)`` when libvips's message says a thread or
    /// memory was refused (GLib: "Error creating thread: Resource temporarily unavailable"),
    /// else ``Reason/corrupt(_:)``.
    static func decoding(_ message: String) -> ThumbnailError {
        let refused = ["Error creating thread", "Resource temporarily unavailable", "Cannot allocate memory", "out of memory"]
        return ThumbnailError(refused.contains { message.localizedCaseInsensitiveContains($0) } ? .systemLimit(message) : .corrupt(message))
    }

    /// What was wrong.
    public var reason: Reason

    /// Creates an error.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// Whether the cover's bytes are damaged (not an SVG librsvg refuses for what it asks of it):
    /// another copy of the image may be whole.
    public var isDamage: Bool {
        guard case .corrupt(let message) = reason else { return false }
        return Self.refusedSVG(message) == nil
    }

    /// What is wrong with the cover and, where the user can act, what to do; the build's warning
    /// puts it after the album and the cover.
    public var description: String {
        switch reason {
        case .corrupt(let message):
            Self.refusedSVG(message) ?? "the image is damaged and cannot be decoded (\(message))"
        case .unsupported:
            "the image is in a format libvips cannot read"
        case .tooManyPixels(let width, let height, let limit):
            "the image is \(width)×\(height) pixels, more than [thumbnails] max_pixels (\(limit)) allows; use a smaller image or raise the limit in gallery.toml"
        case .tooThin(let width, let height, let size, let scaledWidth, let scaledHeight, let limit):
            "the image is \(width)×\(height) pixels, too thin to fill a square: filling a \(size)-pixel square would first scale it to \(scaledWidth)×\(scaledHeight), more than [thumbnails] max_pixels (\(limit)) allows; crop the image nearer to a square, or set [thumbnails] fit = \"contain\""
        case .encoding(let message):
            "the thumbnail could not be encoded (\(message))"
        case .libraryMissing(let message):
            message
        case .systemLimit(let message):
            "the system refused libvips a thread or memory (\(message)); raise the limit (ulimit -u and ulimit -v, or a container's pids and memory limits) and build again"
        }
    }

    /// What librsvg's refusal of an SVG that reaches outside itself or expands without end
    /// means, for the messages it gives (an entity it will not define, a loop of entities, more
    /// references than it follows); `nil` for any other message.
    static func refusedSVG(_ message: String) -> String? {
        let lowered = message.lowercased()
        let what: String
        if lowered.contains("entity reference loop") || lowered.contains("referenced elements") {
            what = "expands into more than librsvg renders (an entity or <use> that multiplies itself)"
        } else if lowered.contains("pereference") || lowered.contains("entity") && (lowered.contains("not defined") || lowered.contains("xml parse error")) {
            what = "uses an entity defined outside it (a DTD or an external file), which librsvg does not load"
        } else {
            return nil
        }
        return "the SVG \(what), so it is refused (\(message)); save it as plain SVG, without a DOCTYPE or entities"
    }
}
