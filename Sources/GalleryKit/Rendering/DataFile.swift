/// `albums.json`: the albums and the strip's constants for scripts; and the same albums in
/// chunks (`data/albums-K.json`, ``chunkSize`` each) for the site's carousel script, which draws
/// tiles beyond a page's static window without fetching the whole collection.
///
/// One album per line, keys in a fixed order, text escaped so the file is safe to inline in HTML.
public enum DataFile {
    /// How many albums each chunk holds.
    public static let chunkSize = 256

    /// The path of chunk `k`, relative to the output folder.
    public static func chunkPath(_ k: Int) -> String { "data/albums-\(k).json" }

    /// The paths of every chunk a catalogue needs.
    public static func chunkPaths(count: Int) -> [String] {
        (0..<((count + chunkSize - 1) / chunkSize)).map(chunkPath)
    }

    /// The albums chunk `k` of a catalogue of `count` albums holds.
    public static func chunkRange(_ k: Int, count: Int) -> Range<Int> {
        min(k * chunkSize, count)..<min(k * chunkSize + chunkSize, count)
    }

    /// Renders chunk `k`: `{"start": …, "albums": [...]}` with the entries `albums.json` has.
    public static func renderChunk(_ k: Int, plan: SitePlan, images: [TileImage]) -> String {
        let start = k * chunkSize
        let range = chunkRange(k, count: plan.catalogue.count)
        var json = "{\"start\":\(start),\"albums\":["
        for index in range {
            json += index == start ? "\n" : ",\n"
            json += entry(plan.catalogue.entries[index], image: images[index])
        }
        return json + "\n]}\n"
    }

    /// Renders the data file; paths are relative to the output folder.
    public static func render(plan: SitePlan, images: [TileImage]) -> String {
        let metrics = plan.layout.metrics
        var json = "{\"version\":1,\"count\":\(plan.catalogue.count),\"initial\":\(plan.initialIndex),"
        json += "\"layout\":{\"padding\":\(metrics.padding),\"dimension\":\(metrics.dimension),\"offset\":\(metrics.offset)},\n\"albums\":["
        json.reserveCapacity(json.utf8.count + plan.catalogue.count * 240)
        for entry in plan.catalogue.entries {
            json += entry.index == 0 ? "\n" : ",\n"
            json += Self.entry(entry, image: images[entry.index])
        }
        json += "\n]}\n"
        return json
    }

    private static func entry(_ entry: Catalogue.Entry, image: TileImage) -> String {
        let album = entry.album
        var json = "{\"slug\":\(quoted(entry.slug)),\"title\":\(quoted(album.title)),\"artist\":\(quoted(album.artist)),"
        json += "\"genre\":\(quoted(album.genre)),\"year\":\(album.year),\"url\":\(quoted(SitePlan.albumFolder(slug: entry.slug))),"
        json += "\"image\":\(quoted(image.src))"
        if let srcset = image.srcset { json += ",\"srcset\":\(quoted(srcset))" }
        return json + "}"
    }

    private static func quoted(_ text: String) -> String {
        Escape.jsonString(text, htmlSafe: true)
    }
}
