// gallery's carousel: the seed's HorizontalScroller, with ScrollerLayout's arithmetic. Without
// it the strip still scrolls and snaps with CSS, and every tile links to its album's page.
(function () {
  "use strict";
  var carousel = document.getElementById("carousel");
  if (!carousel || !window.fetch || !window.URL) return;
  var viewport = carousel.querySelector(".viewport");
  var strip = carousel.querySelector(".strip");
  var status = carousel.querySelector(".carousel-status");
  var data = function (name) { return carousel.getAttribute("data-" + name); };
  var padding = +data("padding"), dimension = +data("dimension"), offset = +data("offset");
  var count = +data("count"), chunkSize = +data("chunk"), current = +data("current");
  var initial = current, stride = dimension + 2 * padding, margin = 3 * stride;
  var root = new URL(data("root"), location.href);
  var isIndex = data("page") === "index";
  var memento = "gallery:" + root.pathname;
  var reduceMotion = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
  var chunks = {}, tiles = {}, each = Array.prototype.forEach;
  if (!count) return;
  carousel.classList.add("js");

  // history.pushState changes the document's URL, so relative links are pinned first.
  each.call(document.querySelectorAll("a[href]"), function (a) { a.setAttribute("href", a.href); });
  each.call(strip.querySelectorAll("img"), function (img) {
    img.setAttribute("src", img.src);
    if (img.getAttribute("srcset")) img.setAttribute("srcset", absoluteSrcset(img.getAttribute("srcset"), location.href));
  });

  function absoluteSrcset(srcset, base) {
    return srcset.split(",").map(function (candidate) {
      var parts = candidate.trim().split(/\s+/);
      return new URL(parts[0], base).href + (parts[1] ? " " + parts[1] : "");
    }).join(", ");
  }

  // The scroller's arithmetic: tile i at x = offset + padding + i·stride.
  function clamp(i) { return Math.max(0, Math.min(count - 1, i)); }
  function frameX(i) { return offset + padding + i * stride; }
  function centringOffset(i) { return frameX(clamp(i)) + dimension / 2 - viewport.clientWidth / 2; }
  // Where the strip can really scroll to: the browser stops at its ends.
  function target(i) { return Math.max(0, Math.min(viewport.scrollWidth - viewport.clientWidth, centringOffset(i))); }
  // centerCurrentView: (⌊x⌋ + offset/2 + padding) / stride in integer division, where x is the
  // seed's content offset: the scroll position less what centring tile 0 needs in this viewport.
  function centredIndex(scrollLeft) {
    var x = scrollLeft - (offset + padding + dimension / 2 - viewport.clientWidth / 2);
    return clamp(Math.trunc((Math.floor(x) + Math.trunc(offset / 2) + padding) / stride));
  }
  function visibleRange(x, width) {
    var start = offset + padding;
    var first = Math.max(0, Math.floor((x - start - dimension) / stride) + 1);
    return [first, Math.max(first, Math.min(count, Math.ceil((x + width - start) / stride)))];
  }

  // Albums come from data/albums-K.json, chunkSize each, fetched once.
  function album(i) {
    var k = Math.floor(i / chunkSize);
    if (!chunks[k]) {
      chunks[k] = fetch(new URL("data/albums-" + k + ".json", root)).then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      }).then(function (chunk) { return chunk.albums; });
    }
    return chunks[k].then(function (albums) { return albums[i - k * chunkSize]; });
  }

  // The seed's KVO spinner: a tile shows it until its image has loaded (or failed).
  function watch(tile, img) {
    if (img.complete && img.naturalWidth) return;
    tile.classList.add("loading");
    var done = function () { tile.classList.remove("loading"); };
    img.addEventListener("load", done);
    img.addEventListener("error", done);
  }

  function makeTile(i, a) {
    var tile = document.createElement("li"), link = document.createElement("a"), img = document.createElement("img");
    tile.className = "tile";
    tile.style.left = frameX(i) + "px";
    tile.style.top = padding + "px";
    tile.setAttribute("data-index", i);
    tile.setAttribute("role", "group");
    tile.setAttribute("aria-roledescription", "slide");
    tile.setAttribute("aria-label", (i + 1) + " of " + count);
    link.href = new URL(a.url, root).href;
    img.src = new URL(a.image, root).href;
    if (a.srcset) img.srcset = absoluteSrcset(a.srcset, root);
    img.width = img.height = dimension;
    img.alt = a.title + " by " + a.artist;
    img.loading = "lazy";
    link.appendChild(img);
    tile.appendChild(link);
    watch(tile, img);
    return tile;
  }

  each.call(strip.querySelectorAll(".tile"), function (tile) {
    tiles[tile.getAttribute("data-index")] = tile;
    watch(tile, tile.querySelector("img"));
  });

  // Only the tiles in view, plus a margin, are in the document; the rest come and go.
  function render() {
    var range = visibleRange(viewport.scrollLeft - margin, viewport.clientWidth + 2 * margin);
    Object.keys(tiles).forEach(function (key) {
      if (key >= range[0] - 20 && key < range[1] + 20) return;
      if (tiles[key]) strip.removeChild(tiles[key]);
      delete tiles[key];
    });
    for (var i = range[0]; i < range[1]; i++) {
      if (tiles[i]) continue;
      tiles[i] = null;
      album(i).then(place.bind(null, i), function () { delete tiles[i]; });
    }
  }
  function place(i, a) {
    if (tiles[i] !== null || !a) return;
    tiles[i] = makeTile(i, a);
    strip.appendChild(tiles[i]);
    if (i === current) mark(i);
  }

  function mark(i) {
    each.call(strip.querySelectorAll(".current"), function (tile) {
      tile.classList.remove("current");
      tile.querySelector("a").removeAttribute("aria-current");
    });
    if (tiles[i]) {
      tiles[i].classList.add("current");
      tiles[i].querySelector("a").setAttribute("aria-current", "page");
    }
  }

  function show(a) {
    var fields = { artist: a.artist, title: a.title, genre: a.genre, year: a.year };
    each.call(document.querySelectorAll("#details [data-field]"), function (cell) {
      cell.textContent = fields[cell.getAttribute("data-field")];
    });
    status.textContent = (current + 1) + " of " + count + ": " + a.title + " by " + a.artist;
  }

  // Select an album: highlight it, show its details, follow it in the URL, remember it.
  function select(i, options) {
    i = clamp(i);
    var changed = i !== current;
    current = i;
    mark(i);
    if (options.scroll && Math.abs(viewport.scrollLeft - target(i)) > 1) {
      programmatic = true;
      viewport.scrollTo({ left: target(i), behavior: reduceMotion || options.instant ? "auto" : "smooth" });
    }
    album(i).then(function (a) {
      if (current !== i || !a) return;
      show(a);
      var url = new URL(a.url, root).href;
      if (options.history === "push" && changed && url !== location.href) history.pushState({ index: i }, "", url);
      if (options.history === "replace") history.replaceState({ index: i }, "", url);
      try { localStorage.setItem(memento, JSON.stringify({ index: i, slug: a.slug })); } catch (e) { /* private mode */ }
    });
  }

  // When a drag or scroll ends, the tile the formula names is centred and becomes current.
  var settle = null, programmatic = false, hasScrollEnd = "onscrollend" in window;
  function scrollEnded() {
    if (programmatic) { programmatic = false; return; }
    var i = centredIndex(viewport.scrollLeft);
    if (Math.abs(viewport.scrollLeft - target(i)) > 1 || i !== current) select(i, { scroll: true, history: "push" });
  }
  viewport.addEventListener("scroll", function () {
    render();
    if (hasScrollEnd) return;
    clearTimeout(settle);
    settle = setTimeout(scrollEnded, 150);
  }, { passive: true });
  viewport.addEventListener("scrollend", scrollEnded);
  ["pointerdown", "wheel", "touchstart", "keydown"].forEach(function (type) {
    viewport.addEventListener(type, function () { programmatic = false; }, { passive: true });
  });

  // A click or tap on a tile selects and centres it (the seed's scrollerTapped).
  strip.addEventListener("click", function (event) {
    var tile = event.target.closest(".tile");
    if (!tile || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    select(+tile.getAttribute("data-index"), { scroll: true, history: "push" });
  });

  viewport.addEventListener("keydown", function (event) {
    var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(moves[event.key], { scroll: true, history: "push" });
  });
  each.call(carousel.querySelectorAll(".carousel-previous, .carousel-next"), function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      select(current + (button.classList.contains("carousel-next") ? 1 : -1), { scroll: true, history: "push" });
    });
  });

  window.addEventListener("popstate", function (event) {
    select(event.state && typeof event.state.index === "number" ? event.state.index : initial, { scroll: true, history: "none" });
  });
  window.addEventListener("resize", function () { viewport.scrollLeft = target(current); });

  // Open centred on the current album, or on the index on the last one viewed (the memento).
  var saved = null;
  try { saved = isIndex && JSON.parse(localStorage.getItem(memento) || "null"); } catch (e) { saved = null; }
  programmatic = Math.abs(viewport.scrollLeft - target(current)) > 1;
  viewport.scrollLeft = target(current);
  render();
  history.replaceState({ index: current }, "", location.href);
  if (saved && saved.index >= 0 && saved.index < count) {
    album(saved.index).then(function (a) {
      if (a && a.slug === saved.slug) select(saved.index, { scroll: true, instant: true, history: "replace" });
    });
  }
})();
