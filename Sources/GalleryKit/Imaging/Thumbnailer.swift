import CVipsShim
import Foundation

/// Makes thumbnails with libvips: the one Swift type that calls it (through the `CVipsShim` C
/// target, since Swift cannot call libvips's variadic functions). Every buffer libvips hands out
/// is copied into Swift memory and freed here.
///
/// Thumbnails are shrunk while they load (JPEG and WebP decode at a fraction of their size), fitted
/// to an exact square and saved without metadata. libvips's own threads are off: callers run one
/// thumbnail per core instead, which keeps every core busy with less locking.
public struct Thumbnailer: Sendable {
    /// The most pixels (width × height) a cover's header may claim before it is refused unread.
    public var maxPixels: Int

    /// A version of the shim's output, part of every cache key, so thumbnails made by an older
    /// shim (or named by an older cache, see `GALLERY_VIPS_SHIM_VERSION`) are made again rather
    /// than reused.
    public static let shimVersion = Int(GALLERY_VIPS_SHIM_VERSION)

    /// Why libvips cannot be used (it is loaded on first use, not linked), or `nil` when it can.
    /// Checked once per process.
    public static let libraryProblem: String? = gallery_vips_init() == 0 ? nil : lastError()

    /// Keeps libvips from loading modules gallery never uses (ImageMagick, PDF, OpenSlide, JPEG
    /// XL: 12 ms of every cold start) unless `VIPSHOME` is set; the HEIF module, for AVIF, is
    /// loaded when an AVIF is first written. For the executable, first thing, before any thread
    /// starts.
    public static func loadOnlyUsedModules() {
        gallery_vips_load_only_used_modules()
    }

    /// Starts loading libvips on a thread of its own when the thumbnail cache folder `cache` does
    /// not exist yet (a first build, or CI without its cache): that build will make thumbnails,
    /// and loading libvips and its hundred libraries (about 45 ms) then overlaps reading the
    /// archive and the covers instead of delaying the first thumbnail. A build with a cache loads
    /// it only if it has a thumbnail to make, as before.
    public static func startLoadingIfCold(cache: URL) {
        guard !FileManager.default.fileExists(atPath: cache.path) else { return }
        startLoading { _ = libraryProblem }
    }

    /// Loads begun by ``startLoadingIfCold(cache:)`` that have not ended.
    private static let loads = DispatchGroup()

    /// Runs `load` on a thread of its own, counted among the loads ``loadsEnded()`` waits for.
    static func startLoading(_ load: @escaping @Sendable () -> Void) {
        loads.enter()
        Thread.detachNewThread {
            load()
            loads.leave()
        }
    }

    /// Returns once no load begun by ``startLoadingIfCold(cache:)`` is under way. A build calls
    /// it before it ends, so the process never exits while libvips loads: `exit` then ran the
    /// destructors of libraries the loading thread was still starting, and one failed build in
    /// about fifteen (an archive with a duplicate slug and no cache yet) aborted with "double
    /// free or corruption" instead of exiting 1.
    public static func loadsEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loads.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// Frees what libvips keeps for the calling thread. A thread that made thumbnails, and that
    /// libvips did not create, calls it before it exits (libvips requires it). Loads nothing.
    public static func threadFinished() {
        gallery_vips_thread_shutdown()
    }

    /// Whether libvips runs its vector code: orc before libvips 8.15, which is not thread safe
    /// and which the shim turns off, and Highway since, which it leaves on.
    static var runsVectorCode: Bool {
        gallery_vips_vectorised() == 1
    }

    /// libvips's version as major × 10000 + minor × 100 + micro, or 0 when it cannot be loaded.
    static var libraryVersion: Int {
        Int(gallery_vips_version())
    }

    /// What `gallery env` says of libvips: its version, the file it was loaded from and whether
    /// its vector code runs; or why it cannot be loaded. Loads libvips.
    public static var libraryFacts: [(key: String, value: String)] {
        if let problem = libraryProblem { return [("libvips", "not loaded: \(problem)")] }
        var facts = [("libvips", RuntimeFacts.dotted(libraryVersion))]
        if let file = gallery_vips_library_file() { facts.append(("libvips_file", String(cString: file))) }
        facts.append(("libvips_vector", runsVectorCode ? "on" : "off (orc is not thread safe before libvips 8.15)"))
        facts.append(("thumbnail_formats", ThumbnailFormat.allCases.filter(\.isSupported).map(\.rawValue).joined(separator: " ")))
        return facts
    }

    /// Throws ``ThumbnailError/Reason/libraryMissing(_:)`` when libvips cannot be used.
    static func requireLibrary() throws(ThumbnailError) {
        if let problem = libraryProblem { throw ThumbnailError(.libraryMissing(problem)) }
    }

    /// Creates a thumbnailer that refuses covers of more than `maxPixels` pixels.
    public init(maxPixels: Int) {
        self.maxPixels = maxPixels
    }

    /// The width and height an encoded image's header claims, read without decoding its pixels.
    /// - Throws: ``ThumbnailError`` when no decoder knows the bytes or the header is damaged.
    public static func dimensions(of bytes: [UInt8]) throws(ThumbnailError) -> (width: Int, height: Int) {
        try requireLibrary()
        var width: Int32 = 0
        var height: Int32 = 0
        let status = bytes.withUnsafeBytes { buffer in
            gallery_vips_header(buffer.baseAddress, buffer.count, &width, &height)
        }
        switch status {
        case 0: return (Int(width), Int(height))
        case -2: throw ThumbnailError(.unsupported)
        default: throw ThumbnailError.decoding(lastError(or: "its header cannot be read: cut short, or failing its checksum"))
        }
    }

    /// Throws ``ThumbnailError/Reason/tooManyPixels(width:height:limit:)`` when an image of
    /// this size has more than ``maxPixels`` pixels.
    public func check(width: Int, height: Int) throws(ThumbnailError) {
        // Each side is checked first, so the product cannot overflow (both are below 2³¹).
        if width > maxPixels || height > maxPixels || width * height > maxPixels {
            throw ThumbnailError(.tooManyPixels(width: width, height: height, limit: maxPixels))
        }
    }

    /// Also throws ``ThumbnailError/Reason/tooThin(width:height:size:scaledWidth:scaledHeight:limit:)`` when a spec
    /// that fills its square (`crop`, `attention`) would first scale a long, thin image to more
    /// than ``maxPixels``: libvips scales the short side up to the square's before it cuts, so
    /// a 1×65,000 strip of 150 bytes became a 300×19,500,000 image, gigabytes of memory.
    public func check(width: Int, height: Int, for specs: [ThumbnailSpec]) throws(ThumbnailError) {
        try check(width: width, height: height)
        guard width > 0, height > 0, let size = specs.filter({ $0.fit != .contain }).map(\.size).max() else { return }
        let (short, long) = (min(width, height), max(width, height))
        // The long side once the short one is `size`, rounded up as libvips rounds it.
        let scaledLong = (long * size + short - 1) / short
        if scaledLong > maxPixels / max(size, 1) {
            let scaled = width < height ? (size, scaledLong) : (scaledLong, size)
            throw ThumbnailError(.tooThin(width: width, height: height, size: size, scaledWidth: scaled.0, scaledHeight: scaled.1, limit: maxPixels))
        }
    }

    /// Makes one thumbnail of an encoded image.
    ///
    /// The header is checked against ``maxPixels`` first, so an image that claims to be huge is
    /// refused before a single pixel is decoded. A damaged image fails rather than producing a
    /// partly grey thumbnail.
    /// - Returns: The encoded thumbnail, exactly `spec.size` pixels square.
    /// - Throws: ``ThumbnailError`` naming the cause.
    public func thumbnail(of bytes: [UInt8], as spec: ThumbnailSpec) throws(ThumbnailError) -> [UInt8] {
        try Self.requireLibrary()
        if !spec.format.isSupported {
            throw ThumbnailError(.encoding("this libvips cannot write \(spec.format.rawValue.uppercased())"))
        }
        let (width, height) = try Self.dimensions(of: bytes)
        try check(width: width, height: height, for: [spec])
        if width == height, ImageKind.sniff(bytes) == .svg, let drawn = Self.drawnSVG(bytes, side: width, as: spec) { return drawn }
        return try Self.encode(bytes, as: spec)
    }

    /// Makes several thumbnails of one encoded image, decoding it once for each chain of specs
    /// (see ``chains(of:from:)``): the largest size of a chain is made from the image, exactly as
    /// ``thumbnail(of:as:)`` makes it, and the others are resized from that in memory. An SVG's
    /// sizes are each drawn from the vector (chains of one).
    ///
    /// So a thumbnail's bytes depend on the chain it is made in, not only on its spec:
    /// ``resizedFrom(in:from:)`` says which size each is resized from.
    ///
    /// The same checks as ``thumbnail(of:as:)`` come first.
    /// - Returns: One encoded thumbnail per spec, in the order of `specs`.
    /// - Throws: ``ThumbnailError`` naming the cause.
    public func thumbnails(of bytes: [UInt8], as specs: [ThumbnailSpec]) throws(ThumbnailError) -> [[UInt8]] {
        guard !specs.isEmpty else { return [] }
        try Self.requireLibrary()
        if let spec = specs.first(where: { !$0.format.isSupported }) {
            throw ThumbnailError(.encoding("this libvips cannot write \(spec.format.rawValue.uppercased())"))
        }
        let (width, height) = try Self.dimensions(of: bytes)
        try check(width: width, height: height, for: specs)
        var made = [[UInt8]](repeating: [], count: specs.count)
        let kind = ImageKind.sniff(bytes)
        for chain in Self.chains(of: specs, from: kind) {
            if kind == .svg, width == height, chain.count == 1, let drawn = Self.drawnSVG(bytes, side: width, as: specs[chain[0]]) {
                made[chain[0]] = drawn
                continue
            }
            for (index, thumbnail) in zip(chain, try Self.encodeChain(bytes, as: chain.map { specs[$0] })) {
                made[index] = thumbnail
            }
        }
        return made
    }

    /// The specs ``thumbnails(of:as:)`` makes together, from one decode, as indices into
    /// `specs`: those of the same fit, format and quality (which differ only in size), in the
    /// order each first appears.
    ///
    /// A cover of `kind` SVG is drawn afresh for every size instead (each spec a chain of its
    /// own): drawing a vector at 100 px is cheaper than resizing it from 300, and sharper, as a
    /// browser showing the SVG at that size would draw it. (Resizing an image with transparency
    /// goes through floating point in libvips: two thirds of an SVG tile's time went to it.)
    public static func chains(of specs: [ThumbnailSpec], from kind: ImageKind? = nil) -> [[Int]] {
        if kind == .svg { return specs.indices.map { [$0] } }
        var chains: [[Int]] = []
        var chainOf: [ThumbnailSpec: Int] = [:]
        for (index, spec) in specs.enumerated() {
            let key = ThumbnailSpec(size: 0, fit: spec.fit, format: spec.format, quality: spec.quality)
            if let chain = chainOf[key] {
                chains[chain].append(index)
            } else {
                chainOf[key] = chains.count
                chains.append([index])
            }
        }
        return chains
    }

    /// For each spec, the size of the thumbnail ``thumbnails(of:as:)`` resizes it from when it
    /// makes them all of a cover of `kind`, or `nil` for one it makes from the image itself (the
    /// largest of its chain, and every size of an SVG).
    public static func resizedFrom(in specs: [ThumbnailSpec], from kind: ImageKind? = nil) -> [Int?] {
        var sources = [Int?](repeating: nil, count: specs.count)
        for chain in chains(of: specs, from: kind) {
            let largest = chain.map { specs[$0].size }.max() ?? 0
            for index in chain where specs[index].size < largest { sources[index] = largest }
        }
        return sources
    }

    /// Decodes the image once and makes a chain of thumbnails, which differ only in size, with
    /// no checks: the largest as ``thumbnail(of:as:)`` makes it, the others resized from it.
    private static func encodeChain(_ bytes: [UInt8], as chain: [ThumbnailSpec], jpegWarningsPass: Bool = false) throws(ThumbnailError) -> [[UInt8]] {
        guard let first = chain.first else { return [] }
        var sizes = chain.map { Int32($0.size) }
        var outputs = [UnsafeMutableRawPointer?](repeating: nil, count: chain.count)
        var lengths = [Int](repeating: 0, count: chain.count)
        let status = bytes.withUnsafeBytes { buffer in
            gallery_vips_thumbnails(
                buffer.baseAddress, buffer.count, Int32(chain.count), &sizes,
                code(for: first.fit), code(for: first.format), Int32(first.quality), jpegWarningsPass ? 1 : 0, &outputs, &lengths
            )
        }
        defer { outputs.forEach { gallery_vips_free($0) } }
        guard status == 0 else {
            let message = lastError()
            if !jpegWarningsPass, try wholeDespiteWarnings(bytes, message) { return try encodeChain(bytes, as: chain, jpegWarningsPass: true) }
            throw ThumbnailError.decoding(message)
        }
        return zip(outputs, lengths).map { output, length in
            output.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
        }
    }

    /// Decodes, fits and encodes, with no checks: ``thumbnail(of:as:)``'s last step, and the probe
    /// behind ``ThumbnailFormat/isSupported``.
    static func encode(_ bytes: [UInt8], as spec: ThumbnailSpec, jpegWarningsPass: Bool = false) throws(ThumbnailError) -> [UInt8] {
        var output: UnsafeMutableRawPointer?
        var length = 0
        let status = bytes.withUnsafeBytes { buffer in
            gallery_vips_thumbnail(
                buffer.baseAddress, buffer.count, Int32(spec.size), Int32(spec.size),
                code(for: spec.fit), code(for: spec.format), Int32(spec.quality), jpegWarningsPass ? 1 : 0, &output, &length
            )
        }
        guard status == 0, let output else {
            let message = lastError()
            if !jpegWarningsPass, try wholeDespiteWarnings(bytes, message) { return try encode(bytes, as: spec, jpegWarningsPass: true) }
            throw ThumbnailError.decoding(message)
        }
        defer { gallery_vips_free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }

    /// Whether a JPEG's decoding failed only on libjpeg's warnings that leave the image whole
    /// (bytes between segments, "Corrupt JPEG data: 3 extraneous bytes before marker 0xda"; an
    /// unknown JFIF revision; odd scan parameters; an unknown Adobe transform), and on none that
    /// mean scan data was lost (a premature end, a bad Huffman or arithmetic code, a marker where
    /// the scan should go on), which decode to flat grey: then it is decoded again with warnings
    /// let through.
    static func onlyHarmlessJPEGWarnings(_ message: String) -> Bool {
        let lowered = message.lowercased()
        guard lowered.contains("vipsjpeg") else { return false }
        return !lostScanData.contains { lowered.contains($0) }
    }

    /// Whether a JPEG whose decoding failed on `message`, a warning that leaves the image whole,
    /// is whole all the same: libvips passes on only the first warning, so a harmless one (bytes
    /// between segments) could hide lost scan data after it (QA round 23), and libjpeg reads the
    /// whole file to see every warning. False for any other failure.
    /// - Throws: ``ThumbnailError`` naming the lost data when libjpeg finds some.
    private static func wholeDespiteWarnings(_ bytes: [UInt8], _ message: String) throws(ThumbnailError) -> Bool {
        guard onlyHarmlessJPEGWarnings(message) else { return false }
        var found = [CChar](repeating: 0, count: 512)
        let verdict = bytes.withUnsafeBytes { buffer in
            gallery_jpeg_scan(buffer.baseAddress, buffer.count, &found, found.count)
        }
        switch verdict {
        case 1:
            return true
        case 0:
            let lost = String(decoding: found.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ThumbnailError(.corrupt("libjpeg: \(lost), after \(message)"))
        default:
            // Without libjpeg of its own, gallery cannot look past the first warning: refused.
            return false
        }
    }

    /// What libjpeg says when it fills what it could not read with grey (and libvips when the
    /// file ends early): the texts of the warnings `loses_scan_data()` in `jpeg_scan.c` tells by
    /// their codes. Only a first look, to spare plainly damaged files libjpeg's second reading.
    static let lostScanData = ["premature end", "bad huffman code", "bad arithmetic code", "instead of rst", "found marker"]

    /// A gradient image (red follows x, green follows y) encoded as PNG, JPEG or WebP, for tests
    /// and benchmarks that need real images of a given size.
    public static func pattern(width: Int, height: Int, kind: ImageKind) throws(ThumbnailError) -> [UInt8] {
        let format: Int32 = switch kind {
        case .png: Int32(GALLERY_FORMAT_PNG)
        case .jpeg: Int32(GALLERY_FORMAT_JPEG)
        case .webp: Int32(GALLERY_FORMAT_WEBP)
        case .gif, .svg: -1
        }
        try requireLibrary()
        var output: UnsafeMutableRawPointer?
        var length = 0
        guard gallery_vips_pattern(Int32(width), Int32(height), format, &output, &length) == 0, let output else {
            throw ThumbnailError(.encoding(lastError()))
        }
        defer { gallery_vips_free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }

    /// A JPEG of one sRGB colour in CMYK, converted with the ICC profile in `profile` (a file),
    /// which it embeds: a print file's cover, for tests.
    public static func cmykPattern(profile: String, width: Int, height: Int, red: Int, green: Int, blue: Int) throws(ThumbnailError) -> [UInt8] {
        try requireLibrary()
        var output: UnsafeMutableRawPointer?
        var length = 0
        guard gallery_vips_cmyk_pattern(profile, Int32(width), Int32(height), Int32(red), Int32(green), Int32(blue), &output, &length) == 0, let output else {
            throw ThumbnailError(.encoding(lastError()))
        }
        defer { gallery_vips_free(output) }
        return Array(UnsafeRawBufferPointer(start: output, count: length))
    }

    /// The red, green, blue and alpha values (0…255) of one pixel of an encoded image (alpha is
    /// 255 in an image without an alpha channel).
    public static func pixel(of bytes: [UInt8], x: Int, y: Int) throws(ThumbnailError) -> (red: Int, green: Int, blue: Int, alpha: Int) {
        try requireLibrary()
        var red: Int32 = 0, green: Int32 = 0, blue: Int32 = 0, alpha: Int32 = 0
        let status = bytes.withUnsafeBytes { buffer in
            gallery_vips_pixel(buffer.baseAddress, buffer.count, Int32(x), Int32(y), &red, &green, &blue, &alpha)
        }
        guard status == 0 else { throw ThumbnailError.decoding(lastError()) }
        return (Int(red), Int(green), Int(blue), Int(alpha))
    }

    private static func code(for fit: ThumbnailFit) -> Int32 {
        switch fit {
        case .crop: Int32(GALLERY_FIT_CROP)
        case .contain: Int32(GALLERY_FIT_CONTAIN)
        case .attention: Int32(GALLERY_FIT_ATTENTION)
        }
    }

    private static func code(for format: ThumbnailFormat) -> Int32 {
        switch format {
        case .webp: Int32(GALLERY_FORMAT_WEBP)
        case .jpeg: Int32(GALLERY_FORMAT_JPEG)
        case .png: Int32(GALLERY_FORMAT_PNG)
        case .avif: Int32(GALLERY_FORMAT_AVIF)
        }
    }

    /// libvips's error text for the failure that just happened, or a plain phrase when it left
    /// none. (libvips keeps one buffer per process, so two failures at once may share a text.)
    private static func lastError(or fallback: String = "libvips gave no details") -> String {
        guard let text = gallery_vips_error() else { return fallback }
        defer { gallery_vips_free(text) }
        var seen = Set<String>()
        let message = String(cString: text)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
            .joined(separator: "; ")
        return message.isEmpty ? fallback : message
    }
}
