// ClubDesk table page: reload when the table changed at the desk or on the other phone.
(function () {
  "use strict";
  var box = document.getElementById("score");
  if (!box || !window.fetch) { return; }
  var url = box.getAttribute("data-live");
  var page = box.getAttribute("data-page") || window.location.pathname;
  var key = box.getAttribute("data-key");
  // a post is answered with the page itself: show the table's own address, so a reload reads the page
  if (window.history && window.history.replaceState && window.location.pathname !== page) {
    window.history.replaceState(null, "", page);
  }
  var busy = false;
  var leaving = false; // a form is being sent: its own answer reloads the page, the poll must not
  function poll() {
    if (busy || leaving || document.hidden) { return; }
    busy = true;
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) {
        busy = false;
        if (d && d.key !== key && !leaving) { window.location.replace(page); }
      })
      .catch(function () { busy = false; });
  }
  window.setInterval(poll, 500);
  window.addEventListener("pagehide", function () { leaving = true; });
  document.addEventListener("submit", function (e) {
    leaving = true;
    var b = e.target.querySelector("button[type=submit]");
    if (b) { window.setTimeout(function () { b.disabled = true; }, 0); }
  });
})();
