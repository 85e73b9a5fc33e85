/* carom-referee pages: shared helpers (vanilla JS, no build step).
 *
 * Carom.api(method, path, body)  fetch with the Bearer token from localStorage; throws an
 *                                Error whose message is the server's one-line "detail".
 * Carom.live(onState, onConn)    the live STATE: cached copy first (instant on reload), then
 *                                GET /api/state, then the /api/events stream (the browser
 *                                resends Last-Event-ID itself when the stream reconnects).
 * Carom.tokenDialog()            ask once for the admin token and keep it in localStorage.
 */
(function () {
  "use strict";
  const TOKEN_KEY = "carom-token";
  const STATE_KEY = "carom-state";

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function token() { return localStorage.getItem(TOKEN_KEY) || ""; }
  function setToken(value) {
    if (value) localStorage.setItem(TOKEN_KEY, value.trim());
    else localStorage.removeItem(TOKEN_KEY);
  }

  class ApiError extends Error {
    constructor(status, detail) { super(detail); this.status = status; }
  }

  async function api(method, path, body) {
    const headers = { Accept: "application/json" };
    if (method !== "GET") {
      headers["Content-Type"] = "application/json";
      if (token()) headers.Authorization = "Bearer " + token();
    }
    let response;
    try {
      response = await fetch(path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiError(0, "the server does not answer: check that `carom serve` is running");
    }
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (err) { data = null; }
    if (!response.ok) {
      const detail = data && data.detail ? data.detail : `${response.status} ${response.statusText}`;
      if (response.status === 401) { tokenDialog(detail); }
      throw new ApiError(response.status, typeof detail === "string" ? detail : JSON.stringify(detail));
    }
    return data;
  }

  function cachedState() {
    try { return JSON.parse(localStorage.getItem(STATE_KEY) || "null"); } catch (err) { return null; }
  }

  /* Feed onState with every newer STATE; onConn(true|false) with the stream's health. */
  function live(onState, onConn) {
    let version = -1;
    const accept = (state) => {
      if (!state || typeof state.version !== "number" || state.version < version) return;
      version = state.version;
      try { localStorage.setItem(STATE_KEY, JSON.stringify(state)); } catch (err) { /* full */ }
      onState(state);
    };
    accept(cachedState());
    version = -1; // the cache is only a first paint: the server's state always wins
    fetch("/api/state").then((r) => (r.ok ? r.json() : null)).then(accept).catch(() => {});
    const source = new EventSource("/api/events");
    source.addEventListener("state", (ev) => {
      try { accept(JSON.parse(ev.data)); } catch (err) { /* a torn message: the next one heals */ }
    });
    source.addEventListener("open", () => {
      version = -1; // a restarted server counts from 0 again; one stream is ordered
      if (onConn) onConn(true);
    });
    source.addEventListener("error", () => onConn && onConn(false));
    window.addEventListener("pagehide", () => source.close());
    // Back from the back/forward cache the stream is closed: start afresh.
    window.addEventListener("pageshow", (ev) => { if (ev.persisted) location.reload(); });
    return source;
  }

  function tokenDialog(reason) {
    let dialog = document.getElementById("token-dialog");
    if (!dialog) {
      const input = el("input", { type: "password", id: "token-input", autocomplete: "off",
        placeholder: "admin token printed by carom serve" });
      dialog = el("dialog", { class: "token", id: "token-dialog" },
        el("form", { method: "dialog", class: "grid" },
          el("h2", { text: "Admin token" }),
          el("p", { class: "muted", id: "token-reason" }),
          el("label", {}, "Token", input),
          el("div", { class: "row" },
            el("button", { class: "primary", id: "token-save", value: "save" }, "Save"),
            el("button", { value: "cancel", formnovalidate: true }, "Cancel"))));
      dialog.addEventListener("close", () => {
        if (dialog.returnValue === "save" && input.value.trim()) {
          setToken(input.value);
          document.dispatchEvent(new CustomEvent("carom-token"));
        }
      });
      document.body.append(dialog);
    }
    dialog.querySelector("#token-reason").textContent = reason ||
      "State-changing actions need the admin token (printed once on the server's stderr, or in its --token-file).";
    dialog.querySelector("#token-input").value = "";
    if (!dialog.open) dialog.showModal();
  }

  /* Ask for the token at page load when none is stored. */
  function requireToken() { if (!token()) tokenDialog(); }

  const fmt = {
    // Averages come as numbers or as the referee's own text ("1.250"); three decimals.
    avg(x) {
      if (typeof x === "string" && x.trim()) return x;
      return typeof x === "number" && isFinite(x) ? x.toFixed(3) : "–";
    },
    // Shot numbers as the server says them (0-based, as in its "what" lines, the
    // diagram URLs and carom live's output): one numbering everywhere.
    shotNo(n) { return typeof n === "number" ? n : "?"; },
    int(x) { return typeof x === "number" ? String(x) : "–"; },
    clock(s) { return typeof s === "number" ? String(Math.max(0, Math.ceil(s))) : "–"; },
    date(iso) {
      if (!iso) return "";
      const d = new Date(iso);
      return isNaN(d) ? String(iso) : d.toLocaleString();
    },
    title(name) { return String(name || "").replace(/[-_]/g, " "); },
  };

  /* Time is up on a running clock: the server said so, or the local count reached 0. */
  function timeUp(clock, remaining) {
    return !!clock && clock.running && (clock.expired || remaining <= 0);
  }

  /* The shot clock runs down between two STATE messages: render(clock, remaining_s) 5x a second. */
  function shotClock(render) {
    let clock = null, at = 0;
    const tick = () => {
      if (!clock) { render(null, null); return; }
      const elapsed = clock.running ? (performance.now() - at) / 1000 : 0;
      render(clock, Math.max(0, clock.remaining_s - elapsed));
    };
    setInterval(tick, 200);
    return (next) => { clock = next || null; at = performance.now(); tick(); };
  }

  function setStatus(node, message, kind) {
    node.textContent = message || "";
    node.className = "status" + (kind ? " " + kind : "");
  }

  function connBadge(node) {
    return (ok) => { node.classList.toggle("live", ok); node.textContent = ok ? "live" : "reconnecting"; };
  }

  window.Carom = { el, api, ApiError, live, shotClock, timeUp, token, setToken, tokenDialog, requireToken, fmt, setStatus, connBadge };
})();
