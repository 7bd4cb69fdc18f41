import Foundation
import GalleryKit
import Testing

/// gallery keeps libvips from loading the modules it never uses (ImageMagick, PDF, OpenSlide,
/// JPEG XL) and loads the HEIF one itself when it first writes an AVIF: AVIF thumbnails come
/// out the same whether libvips loaded its modules (the user's `VIPSHOME`) or gallery did.
@Suite struct LibvipsModuleTests {
    /// A cold build; with `LD_DEBUG=files`, glibc names on standard error every library the
    /// process opens, libvips's modules among them.
    func build(_ site: TemporaryFolder, vipsHome: String?) async throws -> (GalleryBinary.Run, [String: Data]) {
        let process = Process()
        process.executableURL = GalleryBinary.url
        process.arguments = ["build", "-q", "--clean"]
        process.currentDirectoryURL = site.url
        var environment = ProcessInfo.processInfo.environment
        environment["VIPSHOME"] = vipsHome
        environment["LD_DEBUG"] = "files"
        process.environment = environment
        let run = try await GalleryBinary.captured(process)
        var thumbnails: [String: Data] = [:]
        for name in site.files(under: "public/covers") {
            thumbnails[name] = try Data(contentsOf: site.url.appending(path: "public/covers/\(name)"))
        }
        try? FileManager.default.removeItem(at: site.url.appending(path: ".gallery-cache"))
        return (run, thumbnails)
    }

    @Test func avifThumbnailsAreWrittenWithTheHEIFModuleLoadedOnDemand() async throws {
        // This libvips writes AVIF when it loads all its modules (as this test process does).
        #expect(ThumbnailFormat.avif.isSupported, "libvips here cannot write AVIF: install libheif's AV1 encoder")
        let site = try Fixture.site([Fixture.album("Photo", "Painter", cover: "covers/photo.png")])
        try Data(try Thumbnailer.pattern(width: 600, height: 400, kind: .png)).write(to: site.url.appending(path: "content/covers/photo.png"))
        try site.write("[thumbnails]\nformat = \"avif\"\n", to: "gallery.toml")
        let (own, ownThumbnails) = try await build(site, vipsHome: nil)
        #expect(own.status == 0, "\(own.stderr.suffix(2000))")
        // Only the HEIF module was opened, for the AVIF.
        // (Checked as plain flags: glibc's trace is thousands of lines, too many for a message.)
        let heif = own.stderr.contains("vips-heif.so")
        #expect(heif, "the HEIF module was not loaded")
        for unused in ["vips-magick.so", "vips-poppler.so", "vips-openslide.so", "vips-jxl.so"] {
            let loaded = own.stderr.contains(unused)
            #expect(!loaded, "\(unused) was loaded")
        }
        #expect(ownThumbnails.count == 3, "\(ownThumbnails.keys.sorted())")
        for (name, bytes) in ownThumbnails {
            #expect(name.hasSuffix(".avif"), "\(name)")
            #expect(bytes.count > 12 && String(decoding: bytes[4..<12], as: UTF8.self) == "ftypavif", "\(name)")
        }
        // libvips's own prefix (Debian's /usr): it loads every module itself, and the same
        // thumbnails come out.
        let (all, allThumbnails) = try await build(site, vipsHome: "/usr")
        #expect(all.status == 0, "\(all.stderr.suffix(2000))")
        let magick = all.stderr.contains("vips-magick.so")
        #expect(magick, "libvips did not load its modules itself")
        #expect(allThumbnails == ownThumbnails)
    }
}
