// gallery's carousel: the seed's HorizontalScroller, with ScrollerLayout's arithmetic. Without
// it the strip still scrolls and snaps with CSS, and every tile links to its album's page.
//
// A tap, a drag or an arrow key selects an album: its tile is centred and highlighted and the
// details show it. On an album page the page follows the selection (heading, title, cover,
// neighbours, and the address, replaced rather than pushed, so Back leaves the page; once the
// selection rests, all else the template writes for an album, from the album's own page): a
// reload shows what was on screen. An index page keeps its address; the last album is remembered
// (localStorage) and the index page that holds it opens on it. A tap on the selected tile, or
// Enter, opens its page.
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
  var isAlbumPage = data("page") === "album";
  var memento = "gallery:" + root.pathname;
  // Read at each scroll, not once: the setting may change while the page is open.
  function reduceMotion() { return window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches; }
  var chunks = {}, tiles = {}, each = Array.prototype.forEach, by = "{title} by {artist}";
  // The tiles the script adds are copies of one the page came with, as the site's tile template
  // made it (a caption, a badge, a <figure>…), rather than the selected one.
  var model = strip && (strip.querySelector(".tile:not(.current)") || strip.querySelector(".tile"));
  // A template without the strip or its tiles (or the script's other hooks; see the README) gets
  // none of it.
  if (!count || !viewport || !model) return;
  carousel.classList.add("js");
  // The keys are the script's: only with it does the strip describe them (the page's hidden
  // .carousel-help), so a page without it promises nothing it does not do.
  var help = carousel.querySelector(".carousel-help");
  if (help && help.id) viewport.setAttribute("aria-describedby", help.id);
  // The strip is one Tab stop: the selected tile's link, which takes the arrow keys. Without the
  // script the scrolling viewport is the stop (the template's tabindex="0"), as a region that
  // scrolls must be reachable by keyboard.
  viewport.tabIndex = -1;

  // history.replaceState changes the document's URL, so relative links are pinned first.
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
  // Whether album i rests where the strip is now (to the pixel).
  function rests(i) { return Math.abs(viewport.scrollLeft - target(i)) <= 1; }
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

  // Albums come from data/albums-K.json, chunkSize each, fetched once, and asked of the server
  // each time (a 304 when unchanged): its name stays from build to build, and a copy the browser
  // kept from before a deploy put another album under this page's tiles. A fetch that fails (a
  // dropped connection, a busy server) is forgotten after a while, longer each time (2 s, 4 s…
  // a minute), and then what waits on it is asked for again: the tiles in view, the selection.
  var failures = {};
  function album(i) {
    var k = Math.floor(i / chunkSize);
    if (!chunks[k]) {
      chunks[k] = fetch(new URL("data/albums-" + k + ".json", root), { cache: "no-cache" }).then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      }).then(function (chunk) { failures[k] = 0; return chunk.albums; });
      chunks[k].catch(function () {
        failures[k] = (failures[k] || 0) + 1;
        setTimeout(function () {
          delete chunks[k];
          render();
          if (Math.floor(current / chunkSize) === k) select(current, {});
        }, Math.min(60000, 1000 * Math.pow(2, failures[k])));
      });
    }
    return chunks[k].then(function (albums) { return albums[i - k * chunkSize]; });
  }
  function nothing() { }

  // The seed's KVO spinner: a tile shows it until its image has loaded (or failed).
  function watch(tile, img) {
    if (img.complete && img.naturalWidth) return;
    tile.classList.add("loading");
    img.onload = img.onerror = function () { tile.classList.remove("loading"); };
  }

  function make(name) { return document.createElement(name); }
  // The model tile, copied before the strip changes, without the selection's marks (a page may
  // hold only the selected tile). A new tile gets afresh what is its album's: the link, the
  // image, the position, and the text of the [data-field] elements (other text is the model's).
  model = model.cloneNode(true);
  model.classList.remove("current");
  model.querySelector("a").removeAttribute("aria-current");
  function makeTile(i, a) {
    var tile = model.cloneNode(true), link = tile.querySelector("a"), img = tile.querySelector("img");
    tile.style.left = frameX(i) + "px";
    tile.style.top = padding + "px";
    tile.dataset.index = i;
    tile.setAttribute("aria-posinset", i + 1);
    tile.setAttribute("aria-setsize", count);
    link.href = new URL(a.url, root).href;
    link.tabIndex = -1;
    img.src = new URL(a.image, root).href;
    if (a.srcset) img.srcset = absoluteSrcset(a.srcset, root);
    else img.removeAttribute("srcset");
    img.width = img.height = dimension;
    img.alt = words(carousel, "alt", by, a);
    img.loading = "lazy";
    fill(tile.querySelectorAll("[data-field]"), a);
    watch(tile, img);
    return tile;
  }

  // The tiles the page came with: the range of albums an index page holds, for the memento.
  // Scrolled out of the document, they are kept, and put back as they are: no album data is
  // needed for them (a page opened from disk may fetch none).
  var first = Infinity, last = -1, own = {};
  each.call(strip.querySelectorAll(".tile"), function (tile) {
    var i = +tile.dataset.index;
    tiles[i] = own[i] = tile;
    first = Math.min(first, i);
    last = Math.max(last, i);
    tile.querySelector("a").tabIndex = -1;
    watch(tile, tile.querySelector("img"));
  });

  // Only the tiles in view, plus a margin, are in the document; the rest come and go, but for
  // the selected one and the one that holds the focus, which would otherwise fall to the body.
  function render() {
    var range = visibleRange(viewport.scrollLeft - margin, viewport.clientWidth + 2 * margin);
    Object.keys(tiles).forEach(function (key) {
      if (key >= range[0] - 20 && key < range[1] + 20 || +key === current || inStrip(tiles[key])) return;
      if (tiles[key]) strip.removeChild(tiles[key]);
      delete tiles[key];
    });
    for (var i = range[0]; i < range[1]; i++) {
      if (tiles[i]) continue;
      if (own[i]) { insert(i, own[i]); continue; }
      tiles[i] = null;
      album(i).then(place.bind(null, i), forget.bind(null, i));
    }
  }
  function forget(i) { if (tiles[i] === null) delete tiles[i]; }
  function place(i, a) {
    if (tiles[i] !== null || !a) return;
    insert(i, makeTile(i, a));
  }
  // A tile goes in its album's place in the list, before the first tile of a later album
  // (the keys of tiles, whole numbers, come in ascending order), so a screen reader reads the
  // albums in order however the strip has scrolled. A tile the page came with may bring back
  // a selection it had: marking the current album again takes it off.
  function insert(i, tile) {
    var next = null;
    for (var key in tiles) if (key > i && tiles[key]) { next = tiles[key]; break; }
    strip.insertBefore(tiles[i] = tile, next);
    if (i === current || tile.classList.contains("current")) mark(current);
  }

  // One tab stop in the strip, the selected tile, and the focus goes with the selection when
  // it is in the strip (a roving tabindex), whatever moved the selection: a key, a click, the
  // wheel. A tile not yet drawn (a far jump, its albums still on their way) takes it when it
  // is, if the focus is still in the strip; meanwhile the viewport holds it, so it is never on
  // a tile scrolled away, and Enter there opens the selected album.
  var wantsFocus = false;
  function inStrip(element) { return element && element.contains(document.activeElement); }
  // The strip has the focus: on a tile, or on the viewport, holding it for a tile to come.
  function stripFocused() { return inStrip(strip) || (wantsFocus && document.activeElement === viewport); }
  function focusCurrent() {
    var link = tiles[current] && tiles[current].querySelector("a");
    wantsFocus = !link;
    (link || viewport).focus({ preventScroll: true });
  }
  // While the selected tile waits for its albums the strip says it is busy, and shows it.
  function waiting(on) {
    if (on) carousel.style.setProperty("--waiting-top", viewport.offsetTop + viewport.clientHeight / 2 + "px");
    carousel.classList.toggle("waiting", on);
    strip.setAttribute("aria-busy", on);
  }

  function mark(i) {
    // At either end its button does nothing: said with aria-disabled, which, unlike disabled,
    // keeps the focus on the button that has it.
    each.call(buttons, function (b) { b.setAttribute("aria-disabled", clamp(i + step(b)) === i); });
    each.call(strip.querySelectorAll(".current"), function (tile) {
      var link = tile.querySelector("a");
      tile.classList.remove("current");
      link.removeAttribute("aria-current");
      link.tabIndex = -1;
    });
    var link = tiles[i] && tiles[i].querySelector("a");
    waiting(!link);
    if (link) {
      tiles[i].classList.add("current");
      link.setAttribute("aria-current", isAlbumPage ? "page" : "true");
      link.tabIndex = 0;
      if (wantsFocus && stripFocused()) focusCurrent();
    }
  }

  // Each [data-field] element shows the album's field of that name: one of the four, or one of
  // its own (params); one it does not have is emptied. A tile in the strip keeps its album's:
  // only a tile not yet added is filled.
  function fill(cells, a) {
    each.call(cells, function (cell) {
      var field = cell.dataset.field, value = /^(artist|title|genre|year)$/.test(field) ? a[field] : (a.params || {})[field];
      if (!strip.contains(cell)) cell.textContent = value == null ? "" : value;
    });
  }

  // The status line, a polite live region, speaks once the selection has come to rest (400 ms
  // after the last change, not for every album a run of keys passes) and only words it does not
  // hold already. With the focus on the selected tile it says nothing, and holds no stale words:
  // the screen reader says the link's name and its item's "N of M" as the focus arrives.
  var quiet;
  function show(a) {
    fill(document.querySelectorAll("main [data-field]"), a);
    var text = words(carousel, "status", "{number} of {count}: " + by, Object.assign({ number: current + 1, count: count }, a));
    clearTimeout(quiet);
    quiet = setTimeout(function () {
      if (inStrip(tiles[current])) text = "";
      if (status && status.textContent !== text) status.textContent = text;
    }, 400);
  }

  // The site's words ([text]) from the page, or English from a template without them: a
  // pattern whose {title}, {artist}… are the album's.
  function words(element, name, english, a) {
    return ((element && element.getAttribute("data-" + name)) || english).replace(/\{(\w+)\}/g, function (slot, key) { return key in a ? a[key] : slot; });
  }

  // An album page becomes the selected album's page: what its own page would show. Its title
  // follows #carousel's data-title pattern, or else the built-in "Title · Artist" and what came
  // after it; only when the pattern gives the title the page came with (spaces as the browser
  // reads them), for a title that cannot be followed is better left than written wrong.
  var titlePattern;
  function spaced(text) { return text.replace(/[\t\n\f\r ]+/g, " ").trim(); }
  if (isAlbumPage) album(initial).then(function (a) {
    // What came after "Title · Artist" in the title, as the browser reads it (a title of two
    // spaces in a row has one there).
    var built = a && spaced(a.title + " · " + a.artist);
    var pattern = a && (data("title") || (document.title.indexOf(built) === 0 ? "{title} · {artist}" + document.title.slice(built.length) : null));
    if (pattern && spaced(words(null, "", pattern, a)) === document.title) titlePattern = pattern;
  }, nothing);
  function follow(i, a) {
    var url = new URL(a.url, root).href, cover = document.querySelector("main img.cover");
    if (url !== location.href) history.replaceState({ index: i }, "", url);
    if (titlePattern) document.title = words(null, "", titlePattern, a);
    if (cover && a.cover) {
      cover.src = new URL(a.cover, root).href;
      cover.alt = a.placeholder ? words(cover, "alt-none", "No cover for " + by, a) : words(cover, "alt", "Cover of " + by, a);
    }
    neighbour("prev", i - 1);
    neighbour("next", i + 1);
  }
  // The neighbour's title in a <bdi>, as the page has it, so right-to-left text keeps its order.
  function neighbour(rel, j) {
    var nav = document.querySelector(".album-nav");
    if (!nav) return;
    var link = nav.querySelector('a[rel="' + rel + '"]');
    if (!link) {
      link = make("a");
      var arrow = make("span");
      arrow.className = "arrow";
      arrow.setAttribute("aria-hidden", "true");
      arrow.textContent = rel === "prev" ? "←" : "→";
      if (rel === "prev") link.append(arrow, " ", make("bdi"));
      else link.append(make("bdi"), " ", arrow);
      link.rel = rel;
      link.hidden = true;
      nav.insertBefore(link, rel === "prev" ? nav.firstChild : null);
    }
    if (j < 0 || j >= count) { link.hidden = true; return; }
    album(j).then(function (b) {
      if (!b || Math.abs(j - current) !== 1) return;
      link.href = new URL(b.url, root).href;
      (link.querySelector("bdi") || link).textContent = b.title;
      link.hidden = false;
    }, nothing);
  }
  // What else the template writes for an album (a link from a param, a class, the canonical
  // link) comes from the album's own page once the selection has rested for 400 ms: fetched,
  // and put in place of what differs, around the carousel, which stays as it is (with the focus
  // and the strip's scroll). Its scripts do not run. A page that cannot be had, or whose carousel
  // is elsewhere, leaves the page as follow() made it.
  var adopting, adoption = 0, shown = current;
  function adopt(i, a) {
    clearTimeout(adopting);
    var ticket = ++adoption, url = new URL(a.url, root).href;
    adopting = setTimeout(function () {
      fetch(url).then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      }).then(function (html) {
        if (ticket !== adoption || current !== i) return;
        var page = new DOMParser().parseFromString(html, "text/html"), theirs = page.getElementById("carousel");
        if (!theirs || !page.body) return;
        // As this page's were, its links are pinned; its images resolve from the address it has now.
        each.call(page.querySelectorAll("a[href]"), function (link) { link.setAttribute("href", new URL(link.getAttribute("href"), url).href); });
        if (!morph(document.body, page.body, theirs)) return;
        if (page.title) document.title = page.title;
        head(page.head);
        document.dispatchEvent(new CustomEvent("gallery:page", { detail: { index: i, album: a } }));
      }).catch(function () { });
    }, 400);
  }
  // Makes `mine` (an ancestor of the carousel) as `theirs`: its attributes, and each child before
  // and after the one that holds the carousel, put in where it differs. False if the pages'
  // carousels are not in the same place.
  function morph(mine, theirs, other) {
    if (mine === carousel) return true;
    if (mine.tagName !== theirs.tagName) return false;
    var own = childHolding(mine, carousel), their = childHolding(theirs, other), at;
    // Checked on the way down, changed on the way up: a page that does not fit changes nothing.
    if (!own || !their || !morph(own, their, other)) return false;
    for (at = mine.attributes.length - 1; at >= 0; at--) if (!theirs.hasAttribute(mine.attributes[at].name)) mine.removeAttribute(mine.attributes[at].name);
    each.call(theirs.attributes, function (attribute) {
      if (mine.getAttribute(attribute.name) !== attribute.value) mine.setAttribute(attribute.name, attribute.value);
    });
    replace(siblings(own, "previousSibling"), siblings(their, "previousSibling"), mine, own);
    replace(siblings(own, "nextSibling"), siblings(their, "nextSibling"), mine, null);
    return true;
  }
  function childHolding(parent, node) {
    while (node && node.parentNode !== parent) node = node.parentNode;
    return node;
  }
  function siblings(node, way) {
    var list = [];
    for (node = node[way]; node; node = node[way]) list.push(node);
    return way === "previousSibling" ? list.reverse() : list;
  }
  // The nodes `mine` become `theirs`: one by one where both have as many, else all at once, in
  // front of `before` (the carousel's branch, or the end).
  function replace(mine, theirs, parent, before) {
    if (mine.length === theirs.length) {
      mine.forEach(function (node, k) { if (!node.isEqualNode(theirs[k])) parent.replaceChild(document.importNode(theirs[k], true), node); });
      return;
    }
    mine.forEach(function (node) { parent.removeChild(node); });
    theirs.forEach(function (node) { parent.insertBefore(document.importNode(node, true), before); });
  }
  // The head's descriptions (meta, the canonical link…) become the page's; its style sheets and
  // scripts stay.
  function head(theirs) {
    var described = function (e) { return e.tagName === "META" || (e.tagName === "LINK" && !/stylesheet|preload|icon/.test(e.rel)); };
    var mine = Array.prototype.filter.call(document.head.children, described), their = Array.prototype.filter.call(theirs.children, described);
    mine.forEach(function (e) { if (!their.some(function (t) { return t.isEqualNode(e); })) e.remove(); });
    their.forEach(function (t) { if (!mine.some(function (e) { return e.isEqualNode(t); })) document.head.appendChild(document.importNode(t, true)); });
  }
  function remember(i, a) {
    // Private browsing may refuse localStorage: then nothing is remembered.
    try { localStorage.setItem(memento, JSON.stringify({ index: i, slug: a.slug })); } catch (e) { }
  }

  // Select an album: highlight it, show its details, follow it on an album page, remember it.
  function select(i, options) {
    i = clamp(i);
    current = i;
    mark(i);
    if (stripFocused()) focusCurrent();
    if (options.scroll && !rests(i)) {
      programmatic = true;
      viewport.scrollTo({ left: target(i), behavior: reduceMotion() || options.instant ? "auto" : "smooth" });
    }
    album(i).then(function (a) {
      if (current !== i || !a) return;
      show(a);
      if (isAlbumPage && i !== shown) {
        follow(i, a);
        adopt(i, a);
      }
      shown = i;
      remember(i, a);
      // For a site's own script: the selection, with the album's fields, as the data file has them.
      document.dispatchEvent(new CustomEvent("gallery:select", { detail: { index: i, album: a } }));
    }, nothing);
  }

  // When a drag or scroll ends, the tile the formula names is centred and becomes current.
  // Where the current album already rests, it stays: a resize, or the browser pulling the strip
  // back inside a wider window, scrolls without the visitor choosing another album, and near
  // either end several albums rest at the same place. At an end, an album the strip cannot
  // centre gives way to the nearest one that rests there, so the strip stays where the visitor
  // left it rather than springing back from the end.
  var settle = null, programmatic = false, hasScrollEnd = "onscrollend" in window;
  function scrollEnded() {
    if (programmatic) { programmatic = false; return; }
    if (rests(current)) return;
    var left = viewport.scrollLeft, i = centredIndex(left);
    if (left <= 1) while (i > 0 && target(i) > left + 1) i--;
    if (left >= viewport.scrollWidth - viewport.clientWidth - 1) while (i < count - 1 && target(i) < left - 1) i++;
    select(i, { scroll: true });
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

  // A click or tap on a tile selects and centres it (the seed's scrollerTapped); on the
  // selected tile it opens its page, as the link says (Enter on it too), unless that page is
  // the one on screen.
  // Keys and clicks with a modifier are the browser's (Alt+← is Back, Ctrl+click a new tab).
  function modified(event) { return event.altKey || event.ctrlKey || event.metaKey || event.shiftKey; }
  strip.addEventListener("click", function (event) {
    var tile = event.target.closest(".tile");
    if (!tile || event.button !== 0 || modified(event)) return;
    var i = +tile.dataset.index;
    if (i === current && !(isAlbumPage && tile.querySelector("a").href === location.href)) return;
    event.preventDefault();
    if (i !== current) select(i, { scroll: true });
  });

  viewport.addEventListener("keydown", function (event) {
    if (modified(event)) return;
    if (event.key === "Enter" && event.target === viewport) {
      album(current).then(function (a) {
        var url = a && new URL(a.url, root).href;
        if (url && url !== location.href) location.assign(url);
      }, nothing);
      return;
    }
    var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(moves[event.key], { scroll: true });
  });
  // The previous and next buttons: a step each way.
  var buttons = carousel.querySelectorAll(".carousel-previous, .carousel-next");
  function step(button) { return button.classList.contains("carousel-next") ? 1 : -1; }
  each.call(buttons, function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { select(current + step(button), { scroll: true }); });
  });

  // A new width keeps the current album, centred again where the strip lets it be.
  window.addEventListener("resize", function () {
    if (rests(current)) return;
    programmatic = true;
    viewport.scrollLeft = target(current);
  });

  // Open centred on the current album; an index page that holds the last album viewed (the
  // memento) opens on that one instead, at the same address.
  var saved = null;
  try { saved = !isAlbumPage && JSON.parse(localStorage.getItem(memento) || "null"); } catch (e) { saved = null; }
  programmatic = !rests(current);
  viewport.scrollLeft = target(current);
  mark(current);
  render();
  if (saved && saved.index >= first && saved.index <= last && saved.index !== current) {
    album(saved.index).then(function (a) {
      if (a && a.slug === saved.slug) select(saved.index, { scroll: true, instant: true });
    }, nothing);
  }
})();
