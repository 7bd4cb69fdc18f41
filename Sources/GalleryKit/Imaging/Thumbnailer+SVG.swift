import CVipsShim

/// A square SVG's WebP thumbnails, drawn without libvips's pipeline (`svg_webp.c`).
extension Thumbnailer {
    /// ``encode(_:as:)`` of an SVG whose header says it is `side` pixels square, drawn by librsvg
    /// and encoded by libwebp without libvips's pipeline around them, when the shim is sure of
    /// making the same bytes that way (`gallery_svg_webp`: a WebP, and an SVG whose size is whole
    /// and square as librsvg reads it too); `nil` otherwise, and the caller makes it through
    /// libvips. The pipeline was a third of the time of each tile of a 300 px SVG cover.
    static func drawnSVG(_ bytes: [UInt8], side: Int, as spec: ThumbnailSpec) -> [UInt8]? {
        guard spec.format == .webp, side > 0, side <= Int(Int32.max) else { return nil }
        var output: UnsafeMutableRawPointer?
        var length = 0
        let made = bytes.withUnsafeBytes { buffer in
            gallery_svg_webp(buffer.baseAddress, buffer.count, Int32(side), Int32(spec.size), Int32(spec.quality), &output, &length)
        }
        guard made == 1, let output else { return nil }
        defer { gallery_vips_free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }
}
