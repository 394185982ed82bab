// ClubDesk table page: reload when the table changed at the desk or on the other phone (issue 27).
(function () {
  "use strict";
  var box = document.getElementById("score");
  if (!box || !window.fetch) { return; }
  var url = box.getAttribute("data-live");
  var key = box.getAttribute("data-key");
  var busy = false;
  function poll() {
    if (busy || document.hidden) { return; }
    busy = true;
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) {
        busy = false;
        if (d && d.key !== key) { window.location.replace(window.location.pathname); }
      })
      .catch(function () { busy = false; });
  }
  window.setInterval(poll, 500);
  document.addEventListener("submit", function (e) {
    var b = e.target.querySelector("button[type=submit]");
    if (b) { window.setTimeout(function () { b.disabled = true; }, 0); }
  });
})();
