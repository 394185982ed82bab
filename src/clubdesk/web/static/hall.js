/* The hall pages: count the table call down, filter "where do I play?", refresh the content.
   The pages work without it. */
(function () {
  function tick() {
    var els = document.querySelectorAll("[data-seconds]");
    for (var i = 0; i < els.length; i++) {
      var el = els[i], s = parseInt(el.getAttribute("data-seconds"), 10) - 1;
      if (s < 0) { s = 0; }
      el.setAttribute("data-seconds", String(s));
      var m = Math.floor(s / 60), r = s % 60;
      el.textContent = (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
    }
  }
  function filter() {
    var box = document.getElementById("who");
    if (!box) { return; }
    var q = box.value.toLowerCase().replace(/ı/g, "i").replace(/ß/g, "ss").normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/\s+/g, " ").trim();
    var rows = document.querySelectorAll("#byname tbody tr");
    for (var i = 0; i < rows.length; i++) {
      var t = rows[i].getAttribute("data-name") || "";
      rows[i].style.display = (!q || t.indexOf(q) >= 0) ? "" : "none";
    }
  }
  function refresh() {
    var x = new XMLHttpRequest();
    x.open("GET", location.href, true);
    x.onload = function () {
      if (x.status !== 200) { return; }
      var doc = new DOMParser().parseFromString(x.responseText, "text/html");
      var fresh = doc.getElementById("content"), here = document.getElementById("content");
      if (fresh && here && fresh.innerHTML !== here.innerHTML) {
        var box = document.getElementById("who"), q = box ? box.value : "";
        var focused = box && document.activeElement === box;
        here.innerHTML = fresh.innerHTML;
        var nb = document.getElementById("who");
        if (nb) { nb.value = q; nb.oninput = filter; if (focused) { nb.focus(); } filter(); }
      }
    };
    x.send();
  }
  var box = document.getElementById("who");
  if (box) { box.oninput = filter; }
  setInterval(tick, 1000);
  setInterval(refresh, parseInt(document.body.getAttribute("data-refresh") || "5000", 10));
})();
