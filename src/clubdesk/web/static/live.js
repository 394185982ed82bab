// ClubDesk table page: follow the table when it changes at the desk or on the other phone, and never lose
// what is typed. A page with nothing typed reloads; a page whose form holds input keeps the form, updates
// the score, the hands and the banners in place and shows "The table changed - reload" (its form's
// version stays the one the player saw: a hand saved on it is refused as stale, and comes back typed).
// Typed values also survive the page's own other posts (a referee call, an undo) and the reload.
(function () {
  "use strict";
  var box = document.getElementById("score");
  if (!box || !window.fetch) { return; }
  var url = box.getAttribute("data-live");
  var page = box.getAttribute("data-page") || window.location.pathname;
  var key = box.getAttribute("data-key");
  var store = "cd-typed:" + page;
  // a post is answered with the page itself: show the table's own address, so a reload reads the page
  if (window.history && window.history.replaceState && window.location.pathname !== page) {
    window.history.replaceState(null, "", page);
  }

  function typingForms() {
    return Array.prototype.slice.call(document.querySelectorAll("form#entry, form#handover-form"));
  }
  function fields(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input, select")).filter(function (el) {
      return el.name && el.type !== "hidden" && el.type !== "submit";
    });
  }
  function changed(el) {
    if (el.type === "radio" || el.type === "checkbox") { return el.checked !== el.defaultChecked; }
    if (el.tagName === "SELECT") { // the option marked selected, else the first, is the default
      var first = 0;
      for (var i = 0; i < el.options.length; i += 1) {
        if (el.options[i].defaultSelected) { first = i; break; }
      }
      return el.selectedIndex !== first;
    }
    return el.value !== el.defaultValue;
  }
  function dirty() {
    return typingForms().some(function (f) {
      return f.getAttribute("data-typed") === "1" || fields(f).some(changed); // a refused hand, typed
    });
  }
  function save() {
    var form = document.getElementById("entry");
    if (!form || !window.sessionStorage) { return; }
    var out = {};
    fields(form).forEach(function (el) {
      if (el.type === "radio") { if (el.checked) { out[el.name] = el.value; } }
      else if (el.type === "checkbox") { out[el.name] = el.checked ? el.value : ""; }
      else { out[el.name] = el.value; }
    });
    try { window.sessionStorage.setItem(store, JSON.stringify(out)); } catch (e) { /* private mode */ }
  }
  function restore() {
    var form = document.getElementById("entry");
    var raw = null;
    try { raw = window.sessionStorage && window.sessionStorage.getItem(store); } catch (e) { raw = null; }
    if (!raw) { return; }
    try { window.sessionStorage.removeItem(store); } catch (e) { /* private mode */ }
    if (!form || form.querySelector(".fault")) { return; } // a refused hand came back typed already
    var data;
    try { data = JSON.parse(raw); } catch (e) { return; }
    fields(form).forEach(function (el) {
      if (!(el.name in data)) { return; }
      if (el.type === "radio") { el.checked = el.value === data[el.name]; }
      else if (el.type === "checkbox") { el.checked = data[el.name] === el.value; }
      else if (!el.disabled) { el.value = data[el.name]; }
    });
  }
  restore();

  var banner = document.getElementById("changed");
  var reload = document.getElementById("reload");
  if (reload) {
    reload.addEventListener("click", function () { save(); window.location.replace(page); });
  }
  function inPlace() {
    // the rest of the page follows the table; the form and what it holds stay as they are
    fetch(page, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html || !window.DOMParser) { return; }
        var fresh = new window.DOMParser().parseFromString(html, "text/html");
        ["score", "facts", "banners", "handsbox"].forEach(function (id) {
          var now = document.getElementById(id);
          var next = fresh.getElementById(id);
          if (now && next) { now.innerHTML = next.innerHTML; }
        });
      })
      .catch(function () { /* the banner still says it */ });
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
        if (!d || d.key === key || leaving) { return; }
        if (!dirty()) { window.location.replace(page); return; }
        key = d.key;
        box.setAttribute("data-seen", key); // the change this page has seen (and kept its form through)
        if (banner) { banner.hidden = false; }
        inPlace();
      })
      .catch(function () { busy = false; });
  }
  window.setInterval(poll, 500);
  window.addEventListener("pagehide", function () { leaving = true; });
  document.addEventListener("submit", function (e) {
    leaving = true;
    if (e.target.id === "entry") {
      try { window.sessionStorage.removeItem(store); } catch (err) { /* private mode */ }
    } else if (dirty()) {
      save(); // a referee call or an undo from this page: the half-typed hand comes back after it
    }
    var b = e.target.querySelector("button[type=submit]");
    if (b) { window.setTimeout(function () { b.disabled = true; }, 0); }
  });
})();
