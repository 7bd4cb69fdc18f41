// gallery: centre the current album's tile with the scroller's own arithmetic.
(function () {
  "use strict";
  var carousel = document.getElementById("carousel");
  if (!carousel) return;
  var viewport = carousel.querySelector(".viewport");
  var n = function (name) { return Number(carousel.getAttribute("data-" + name)); };
  var padding = n("padding"), dimension = n("dimension"), offset = n("offset"), current = n("current");
  // x_k + dimension/2 - W/2: the seed's centring offset for tile k in a viewport W wide.
  var x = offset + padding + current * (dimension + 2 * padding);
  viewport.scrollLeft = x + dimension / 2 - viewport.clientWidth / 2;
})();
