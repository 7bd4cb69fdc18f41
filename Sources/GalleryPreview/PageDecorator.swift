import GalleryKit

/// Adds the live-reload script, and during a failed rebuild the error overlay, to a page as it is
/// served. Only the bytes sent to the browser change: the files `gallery build` writes never
/// carry either.
public enum PageDecorator {
    /// The path of the server-sent event stream the script listens to.
    public static let eventsPath = "/__gallery/events"

    /// The `id` of the overlay element, in served markup and in the script.
    public static let overlayID = "gallery-serve-overlay"

    /// The heading of the overlay.
    static let overlayTitle = "gallery serve: the last rebuild failed; the browser shows the last good build."

    /// How the overlay looks: over everything, readable on any page style.
    static let overlayStyle = "position:fixed;top:0;left:0;right:0;bottom:0;z-index:2147483647;overflow:auto;margin:0;padding:2em;background:rgba(40,0,0,0.94);color:#fee;font:14px/1.5 monospace;white-space:pre-wrap"

    /// The script: reloads on `reload`, draws the overlay (as text) on `error`. EventSource's own
    /// `error` events (connection lost; it reconnects by itself) carry no data and are ignored.
    static let script = """
    <script id="gallery-serve-reload">
    (function () {
      "use strict";
      if (!window.EventSource) return;
      var source = null;
      function connect() {
        source = new EventSource("\(eventsPath)");
        source.addEventListener("reload", function () { location.reload(); });
        source.addEventListener("error", showError);
      }
      // A stream left open by a page in the back-forward cache holds one of the browser's six
      // connections to the server; a few page changes later, loads stall until one times out.
      window.addEventListener("pagehide", function () { if (source) source.close(); source = null; });
      window.addEventListener("pageshow", function (event) { if (event.persisted || !source) connect(); });
      connect();
      function showError(event) {
        if (typeof event.data !== "string") return;
        var lines;
        try { lines = JSON.parse(event.data); } catch (e) { return; }
        var overlay = document.getElementById("\(overlayID)");
        if (!overlay) {
          overlay = document.createElement("div");
          overlay.id = "\(overlayID)";
          overlay.setAttribute("role", "alert");
          overlay.setAttribute("style", "\(overlayStyle)");
          document.body.appendChild(overlay);
        }
        var title = document.createElement("p");
        title.textContent = "\(overlayTitle)";
        var list = document.createElement("pre");
        list.textContent = lines.join("\\n");
        overlay.textContent = "";
        overlay.appendChild(title);
        overlay.appendChild(list);
      }
    })();
    </script>

    """

    /// The overlay's markup for diagnostics, every line escaped.
    public static func overlay(_ diagnostics: [Diagnostic]) -> String {
        let lines = diagnostics.map { Escape.xml($0.description) }.joined(separator: "\n")
        return "<div id=\"\(overlayID)\" role=\"alert\" style=\"\(overlayStyle)\"><p>\(Escape.xml(overlayTitle))</p><pre>\(lines)</pre></div>\n"
    }

    /// A page with the script, and the overlay when `failure` is given, inserted before its last
    /// `</body>` (or appended, for a page without one).
    public static func decorate(_ page: [UInt8], failure: [Diagnostic]? = nil) -> [UInt8] {
        var insertion = failure.map(overlay) ?? ""
        insertion += script
        let at = lastBodyEnd(in: page) ?? page.endIndex
        var result = [UInt8]()
        result.reserveCapacity(page.count + insertion.utf8.count)
        result += page[..<at]
        result += insertion.utf8
        result += page[at...]
        return result
    }

    /// Where the last `</body>` (any case) begins.
    static func lastBodyEnd(in page: [UInt8]) -> Int? {
        let tag = Array("</body".utf8)
        guard page.count >= tag.count else { return nil }
        var index = page.count - tag.count
        while index >= 0 {
            if zip(page[index..<(index + tag.count)], tag).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) { return index }
            index -= 1
        }
        return nil
    }
}
