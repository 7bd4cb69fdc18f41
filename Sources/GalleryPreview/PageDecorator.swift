import GalleryKit

/// Adds the live-reload script's tag, and during a failed rebuild the error overlay, to a page as
/// it is served. Only the bytes sent to the browser change: the files `gallery build` writes never
/// carry either.
public enum PageDecorator {
    /// The path of the live-reload WebSocket the script connects to.
    public static let livePath = "/__gallery/live"

    /// The path the script itself is served from: a page links it rather than holding it, so a
    /// site whose Content-Security-Policy allows only its own scripts (`script-src 'self'`,
    /// which refuses inline ones) still reloads and shows the overlay.
    public static let scriptPath = "/__gallery/reload.js"

    /// The `id` of the overlay element, in served markup and in the script.
    public static let overlayID = "gallery-serve-overlay"

    /// The heading of the overlay over a site that was built before.
    static let overlayTitle = "gallery serve: the last rebuild failed; the browser shows the last good build."

    /// The heading of the overlay while there is no good build at all.
    static let unbuiltTitle = "gallery serve: the site could not be built yet; it is shown here once a save fixes this."

    /// The overlay's heading for the last good build `build`, `nil` if there is none.
    static func overlayTitle(build: String?) -> String {
        build == nil ? unbuiltTitle : overlayTitle
    }

    /// How the overlay looks: over everything, on an opaque background (the page does not show
    /// through the text), readable on any page style.
    static let overlayStyle = "position:fixed;top:0;left:0;right:0;bottom:0;z-index:2147483647;overflow:auto;margin:0;padding:2em;background:#280000;color:#fee;font:14px/1.5 monospace;white-space:pre-wrap"

    /// How the diagnostics' `<pre>` looks: its own `white-space: pre` (from the browser's style
    /// sheet, not inherited) would cut long lines off on a narrow screen, so it wraps them, also
    /// inside a long path.
    static let listStyle = "margin:0;font:inherit;white-space:pre-wrap;overflow-wrap:anywhere"

    /// The script served at ``scriptPath``. It takes the build of the page that links it from
    /// the tag's `data-build` (none: a page served before any good build); on every message (the
    /// preview's state, see ``LiveReloadEvent``) it reloads a page of another build, else draws
    /// the overlay (as text) or removes it. While the server is down it retries later and later
    /// (each failed attempt is a line in the browser's console), and at once when the tab is
    /// shown again. Styles are set through the CSSOM, which a policy against inline styles allows.
    public static let script = """
    (function () {
      "use strict";
      if (!window.WebSocket) return;
      var tag = document.currentScript;
      var build = tag && tag.hasAttribute("data-build") ? tag.getAttribute("data-build") : null;
      var socket = null, retry = null, delay = 500, open = true, focusKey = "gallery-serve-focus";
      // Keyboard focus survives a reload: the element with the same id, or the same link of the
      // same tile, takes it back (a keyboard user was sent back to the top on every save).
      function reload() {
        try {
          var element = document.activeElement, selector = null;
          if (element && element !== document.body) {
            var tile = element.closest ? element.closest("[data-index]") : null;
            if (element.id) selector = "#" + CSS.escape(element.id);
            else if (tile) selector = "[data-index=\\"" + tile.getAttribute("data-index") + "\\"] " + element.tagName.toLowerCase();
          }
          if (selector) sessionStorage.setItem(focusKey, selector);
        } catch (e) {}
        location.reload();
      }
      try {
        var remembered = sessionStorage.getItem(focusKey);
        if (remembered) {
          sessionStorage.removeItem(focusKey);
          var target = document.querySelector(remembered);
          if (target) target.focus();
        }
      } catch (e) {}
      function connect() {
        clearTimeout(retry);
        retry = null;
        if (socket || !open) return;
        var current = socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "\(livePath)");
        current.onmessage = function (event) {
          var state;
          try { state = JSON.parse(event.data); } catch (e) { return; }
          delay = 500;
          if (state.build !== build) reload();
          else if (state.errors) showError(state.errors, state.build === null);
          else hideError();
        };
        current.onclose = function () {
          if (socket !== current) return;
          socket = null;
          if (!open) return;
          retry = setTimeout(connect, delay);
          delay = Math.min(delay * 2, 5000);
        };
      }
      document.addEventListener("visibilitychange", function () { if (!document.hidden && retry) connect(); });
      // A page in the back-forward cache keeps no socket open; it connects again when shown.
      window.addEventListener("pagehide", function () {
        open = false;
        if (socket) { var closing = socket; socket = null; closing.close(); }
      });
      window.addEventListener("pageshow", function () { open = true; connect(); });
      connect();
      function hideError() {
        var overlay = document.getElementById("\(overlayID)");
        if (overlay) overlay.parentNode.removeChild(overlay);
      }
      function showError(lines, unbuilt) {
        if (!Array.isArray(lines)) return;
        var overlay = document.getElementById("\(overlayID)");
        if (!overlay) {
          overlay = document.createElement("div");
          overlay.id = "\(overlayID)";
          overlay.setAttribute("role", "alert");
          document.body.appendChild(overlay);
        }
        // Also over the server's own overlay, whose style attribute a policy may have refused.
        overlay.style.cssText = "\(overlayStyle)";
        var title = document.createElement("p");
        title.textContent = unbuilt ? "\(unbuiltTitle)" : "\(overlayTitle)";
        var list = document.createElement("pre");
        list.style.cssText = "\(listStyle)";
        list.textContent = lines.join("\\n");
        overlay.textContent = "";
        overlay.appendChild(title);
        overlay.appendChild(list);
      }
    })();

    """

    /// The tag that links the script, in a page of the build `build`.
    static func tag(build: String?) -> String {
        let attribute = build.map { " data-build=\"\(Escape.xml($0))\"" } ?? ""
        return "<script id=\"gallery-serve-reload\" src=\"\(scriptPath)\"\(attribute)></script>\n"
    }

    /// The overlay's markup for diagnostics over a page of the build `build` (`nil`: none was
    /// ever good), every line escaped.
    public static func overlay(_ diagnostics: [Diagnostic], build: String?) -> String {
        let lines = diagnostics.map { Escape.xml($0.description) }.joined(separator: "\n")
        return "<div id=\"\(overlayID)\" role=\"alert\" style=\"\(overlayStyle)\"><p>\(Escape.xml(overlayTitle(build: build)))</p><pre style=\"\(listStyle)\">\(lines)</pre></div>\n"
    }

    /// A page of the build `build` with the script, and the overlay when `failure` is given,
    /// inserted before its last `</body>` (or appended, for a page without one).
    public static func decorate(_ page: [UInt8], build: String? = nil, failure: [Diagnostic]? = nil) -> [UInt8] {
        var insertion = failure.map { overlay($0, build: build) } ?? ""
        insertion += tag(build: build)
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
