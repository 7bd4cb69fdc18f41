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
    public static func renderChunk(_ k: Int, plan: SitePlan, images: [TileImage]) -> [UInt8] {
        let start = k * chunkSize
        let range = chunkRange(k, count: plan.catalogue.count)
        var json = ByteWriter(capacity: 64 + range.count * 240)
        json.write("{\"start\":")
        json.write(start)
        json.write(",\"albums\":[")
        for index in range {
            json.write(index == start ? "\n" : ",\n")
            entry(plan.catalogue.entries[index], image: images[index], to: &json)
        }
        json.write("\n]}\n")
        return json.bytes
    }

    /// Renders the data file; paths are relative to the output folder.
    public static func render(plan: SitePlan, images: [TileImage]) -> [UInt8] {
        segmented(plan: plan, images: images).render().bytes
    }

    /// The data file as a head (through `"albums":[`), an entry per album (its separator first)
    /// and a tail, so a build after an edit remakes only the entries that changed
    /// (``SegmentedFile``).
    static func segmented(plan: SitePlan, images: [TileImage]) -> SegmentedFile {
        let entries = plan.catalogue.entries
        let (count, initial, metrics) = (plan.catalogue.count, plan.initialIndex, plan.layout.metrics)
        return SegmentedFile(count: entries.count, capacity: 160 + entries.count * 240, head: {
            var json = ByteWriter(capacity: 160)
            json.write("{\"version\":1,\"count\":")
            json.write(count)
            json.write(",\"initial\":")
            json.write(initial)
            json.write(",\"layout\":{\"padding\":")
            json.write(metrics.padding)
            json.write(",\"dimension\":")
            json.write(metrics.dimension)
            json.write(",\"offset\":")
            json.write(metrics.offset)
            json.write("},\n\"albums\":[")
            return json.bytes
        }, segment: { index, json in
            json.write(index == 0 ? "\n" : ",\n")
            entry(entries[index], image: images[index], to: &json)
        }, tail: Array("\n]}\n".utf8))
    }

    private static func entry(_ entry: Catalogue.Entry, image: TileImage, to json: inout ByteWriter) {
        let album = entry.album
        json.write("{\"slug\":")
        json.writeJSON(entry.slug, htmlSafe: true)
        json.write(",\"title\":")
        json.writeJSON(album.title, htmlSafe: true)
        json.write(",\"artist\":")
        json.writeJSON(album.artist, htmlSafe: true)
        json.write(",\"genre\":")
        json.writeJSON(album.genre, htmlSafe: true)
        json.write(",\"year\":")
        json.write(album.year)
        json.write(",\"url\":")
        json.writeJSON(SitePlan.albumFolder(slug: entry.slug), htmlSafe: true)
        json.write(",\"image\":")
        json.writeJSON(image.src, htmlSafe: true)
        if let srcset = image.srcset {
            json.write(",\"srcset\":")
            json.writeJSON(srcset, htmlSafe: true)
        }
        json.write(",\"cover\":")
        json.writeJSON(image.large ?? image.src, htmlSafe: true)
        if image.isPlaceholder { json.write(",\"placeholder\":true") }
        if album.paramsJSON != nil {
            json.write(",\"params\":{")
            for (offset, param) in album.params.enumerated() {
                if offset > 0 { json.write(",") }
                json.writeJSON(param.key, htmlSafe: true)
                json.write(":")
                switch param.value {
                case .text(let text): json.writeJSON(text, htmlSafe: true)
                // A number a script would show otherwise than the page (`12.50` as 12.5, `1e3`
                // as 1000) is given as the text the page shows.
                case .number(let text) where Album.Param.isWholeNumber(text): json.write(text)
                case .number(let text): json.writeJSON(text, htmlSafe: true)
                case .flag(let flag): json.write(flag ? "true" : "false")
                }
            }
            json.write("}")
        }
        json.write("}")
    }
}
