/// `albums.json`: the albums and the strip's constants for scripts, including the site's own
/// carousel script, which draws tiles beyond the static window from it.
///
/// One album per line, keys in a fixed order, text escaped so the file is safe to inline in HTML.
public enum DataFile {
    /// Renders the data file; paths are relative to the output folder.
    public static func render(plan: SitePlan, images: [TileImage]) -> String {
        let metrics = plan.layout.metrics
        var json = "{\"version\":1,\"count\":\(plan.catalogue.count),\"initial\":\(plan.initialIndex),"
        json += "\"layout\":{\"padding\":\(metrics.padding),\"dimension\":\(metrics.dimension),\"offset\":\(metrics.offset)},\n\"albums\":["
        json.reserveCapacity(json.utf8.count + plan.catalogue.count * 240)
        for entry in plan.catalogue.entries {
            let album = entry.album
            let image = images[entry.index]
            json += entry.index == 0 ? "\n" : ",\n"
            json += "{\"slug\":\(quoted(entry.slug)),\"title\":\(quoted(album.title)),\"artist\":\(quoted(album.artist)),"
            json += "\"genre\":\(quoted(album.genre)),\"year\":\(album.year),\"url\":\(quoted(SitePlan.albumFolder(slug: entry.slug))),"
            json += "\"image\":\(quoted(image.src))"
            if let srcset = image.srcset { json += ",\"srcset\":\(quoted(srcset))" }
            json += "}"
        }
        json += "\n]}\n"
        return json
    }

    private static func quoted(_ text: String) -> String {
        Escape.jsonString(text, htmlSafe: true)
    }
}
