/* carom-referee pages: shared helpers (vanilla JS, no build step).
 *
 * Carom.api(method, path, body)  fetch with the Bearer token from localStorage; throws an
 *                                Error whose message is the server's one-line "detail".
 * Carom.live(onState, onConn)    the live STATE: cached copy first (instant on reload), then
 *                                GET /api/state, then the /api/events stream (the browser
 *                                resends Last-Event-ID itself when the stream reconnects).
 * Carom.tokenDialog()            ask once for the admin token and keep it in localStorage.
 * Carom.withToken()              a promise of the token: asks for it first when none is kept
 *                                (the first action that needs it, never at page load).
 * Carom.ready                    a promise, settled once the page's messages are loaded:
 *                                GET /api/i18n/web (?lang= from the page's own URL, else the
 *                                table's language, else the browser's Accept-Language), then
 *                                [data-i18n] elements filled in and <html lang> set.
 * Carom.t(key, fields)           one message of the `web` catalogue with its {fields}.
 * Carom.followLanguage(redraw)   an open display takes a new table language without a reload.
 * Carom.fmt                      numbers and dates with Intl in the page's language.
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
    // parts: the refusal keyed (detail_parts: carom/web/_refusals.py), or null.
    constructor(status, detail, parts) { super(detail); this.status = status; this.parts = parts || null; }
  }

  async function api(method, path, body) {
    const headers = { Accept: "application/json" };
    if (method !== "GET") {
      headers["Content-Type"] = "application/json";
      headers.Authorization = "Bearer " + await withToken(); // asks for it the first time
    }
    let response;
    try {
      response = await fetch(path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiError(0, t("error.no_server"));
    }
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (err) { data = null; }
    if (!response.ok) {
      const detail = data && data.detail ? data.detail : `${response.status} ${response.statusText}`;
      const err = new ApiError(response.status, typeof detail === "string" ? detail : JSON.stringify(detail),
        data && data.detail_parts);
      if (response.status === 401) { tokenDialog(fmt.refusal(err)); }
      throw err;
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
        placeholder: t("token.placeholder") });
      dialog = el("dialog", { class: "token", id: "token-dialog" },
        el("form", { method: "dialog", class: "grid" },
          el("h2", { text: t("token.title") }),
          el("p", { class: "muted", id: "token-reason" }),
          el("label", {}, t("token.label"), input),
          el("div", { class: "row" },
            el("button", { class: "primary", id: "token-save", value: "save" }, t("token.save")),
            el("button", { value: "cancel", formnovalidate: true }, t("token.cancel")))));
      dialog.addEventListener("close", () => {
        const saved = dialog.returnValue === "save" && input.value.trim();
        if (saved) {
          setToken(input.value);
          document.dispatchEvent(new CustomEvent("carom-token"));
        }
        const waiting = tokenWaiters.splice(0);
        waiting.forEach((w) => (saved ? w.resolve(token()) : w.reject(new ApiError(401, t("token.none")))));
      });
      document.body.append(dialog);
    }
    dialog.querySelector("#token-reason").textContent = reason || t("token.why");
    dialog.querySelector("#token-input").value = "";
    if (!dialog.open) dialog.showModal();
  }

  /* Ask for the token at page load when none is stored. */
  function requireToken() { if (!token()) tokenDialog(); }

  /* The token, asked for first when none is kept: call it at the first action needing it. */
  const tokenWaiters = [];
  function withToken() {
    if (token()) return Promise.resolve(token());
    return new Promise((resolve, reject) => { tokenWaiters.push({ resolve, reject }); tokenDialog(); });
  }

  // ---- the page's language: messages from the server, numbers and dates by Intl ----
  const i18n = { lang: "en", messages: {}, languages: {}, table: null };

  function t(key, fields) {
    // A name the catalogue lacks ("verdict.<new>") shows as the name itself.
    const template = Object.prototype.hasOwnProperty.call(i18n.messages, key) ? i18n.messages[key]
      : key.slice(key.indexOf(".") + 1).replace(/_/g, " ");
    return template.replace(/\{(\w+)\}/g, (m, name) =>
      (fields && fields[name] !== undefined && fields[name] !== null ? String(fields[name]) : m));
  }

  /* Fill the page's fixed text: data-i18n (text), data-i18n-placeholder, -title, -alt, -aria-label. */
  function translate(root) {
    const scope = root || document;
    for (const node of scope.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    for (const attr of ["placeholder", "title", "alt", "aria-label"]) {
      for (const node of scope.querySelectorAll(`[data-i18n-${attr}]`)) node.setAttribute(attr, t(node.getAttribute(`data-i18n-${attr}`)));
    }
  }

  async function loadMessages() {
    const asked = new URLSearchParams(location.search).get("lang");
    const url = "/api/i18n/web" + (asked ? "?lang=" + encodeURIComponent(asked) : "");
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (response.ok) {
        const doc = await response.json();
        Object.assign(i18n, { lang: doc.lang, messages: doc.messages || {}, languages: doc.languages || {},
          table: doc.table_language });
      }
    } catch (err) { /* the server does not answer: English keys stay; the page says so */ }
    document.documentElement.lang = i18n.lang;
    if (document.readyState === "loading") await new Promise((r) => document.addEventListener("DOMContentLoaded", r));
    translate();
    return i18n;
  }
  const ready = loadMessages();

  /* A display left open (scoreboard, overlay) follows the table's language: asked every
   * 10 s (one small GET; a page with ?lang= keeps its own); onChange redraws the page. */
  function followLanguage(onChange, everyMs) {
    if (new URLSearchParams(location.search).get("lang")) return;
    setInterval(async () => {
      try {
        const response = await fetch("/api/settings/language", { headers: { Accept: "application/json" } });
        const doc = response.ok ? await response.json() : null;
        if (!doc || doc.lang === i18n.lang) return;
        await loadMessages();
        onChange();
      } catch (err) { /* the server is away: the stream's badge says so */ }
    }, everyMs || 10000);
  }

  const numberFormats = new Map();
  function number(x, decimals) {
    const key = `${i18n.lang}|${decimals}`;
    if (!numberFormats.has(key)) {
      numberFormats.set(key, new Intl.NumberFormat(i18n.lang, { minimumFractionDigits: decimals,
        maximumFractionDigits: decimals }));
    }
    return numberFormats.get(key).format(x);
  }

  const fmt = {
    // Averages come as numbers or as the referee's own text ("1.250", already truncated):
    // three decimals, written as the page's language writes them ("1,250" in Turkish).
    avg(x) {
      const value = typeof x === "string" && x.trim() ? Number(x) : x;
      if (typeof value === "number" && isFinite(value)) return number(value, 3);
      return typeof x === "string" && x.trim() ? x : "–";
    },
    num(x, decimals) { return typeof x === "number" && isFinite(x) ? number(x, decimals || 0) : "–"; },
    // Shot numbers as the server says them (0-based, as in its "what" lines, the
    // diagram URLs and carom live's output): one numbering everywhere.
    shotNo(n) { return typeof n === "number" ? n : "?"; },
    int(x) { return typeof x === "number" ? number(x, 0) : "–"; },
    clock(s) { return typeof s === "number" ? String(Math.max(0, Math.ceil(s))) : "–"; },
    date(iso) {
      if (!iso) return "";
      const d = new Date(iso);
      return isNaN(d) ? String(iso) : new Intl.DateTimeFormat(i18n.lang, { dateStyle: "short", timeStyle: "short" }).format(d);
    },
    // A discipline or foul name in the page's language ("discipline.three-cushion"), else spaced.
    title(name) {
      const key = "name." + String(name || "");
      return key in i18n.messages ? t(key) : String(name || "").replace(/[-_]/g, " ");
    },
    // A server picture (a shot diagram) in the page's language: its URL with ?lang=.
    inLang(url) { return url + (url.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(i18n.lang); },
    // A pin game stroke's item ("side_pins:4:left+head", referee.pin_items) in the
    // page's language, its pins or balls (referee.BALL_KINDS) named too.
    pinItem(code) {
      const [kind, value, names] = String(code).split(":");
      const ball = ["ricochet", "carom", "pocketed", "off_table"].includes(kind);
      const said = (names ? names.split("+") : []).map((n) => (ball ? t("ball." + n) : t("pin." + n)));
      return t("pins_item." + kind, { value: fmt.int(Number(value)), pin: said[0] || "", ball: said[0] || "",
        count: fmt.int(said.length), pins: said.join(", "), path: said.join("->") });
    },
    // A ball of the break layout and where it stood (referee.LayoutItem.code:
    // role:ball:place:distance, the distance empty on the place).
    placed(code) {
      const [role, ball, place, far] = String(code).split(":");
      const prep = { bottom_half: "in", house: "in", spot1: "beside", spot3: "beside" }[place] || "on";
      const named = t("layout_ball." + role, { ball: t("ball." + ball) });
      return t("layout." + (far ? "from" : prep), { ball: named, place: t("place." + place),
        distance_mm: fmt.int(Number(far || 0)) });
    },
    // A zone rule's region ("head-left", "anchor-left-head", "corner-foot-right":
    // referee.region_words) in the page's language; labels joined by its "and" or "or".
    region(name) {
      const words = String(name).split("-");
      const kind = ["anchor", "corner"].includes(words[0]) ? words.shift() : "zone";
      return t("zone_region." + kind, { name: words.map((w) => t("zone_word." + w)).join("-") });
    },
    joined(labels, join) {
      return labels.reduce((a, b) => t("zone_join." + join, { a, b }));
    },
    // A zone note's field (referee.ZONE_FIELDS) in the page's language: "left" and
    // "placed" hold ball:region+region items (a free region marked "!", none empty).
    zoneField(name, value) {
      if (name === "nth") return t("ordinal." + (value === 1 ? "first" : "other"), { n: fmt.int(value) });
      if (name === "group") return t("zone_group." + value);
      if (name === "balls") return String(value).split(",").map((b) => t("ball." + b)).join(", ");
      const regions = (names) => fmt.joined(names.map((r) => (r.endsWith("!")
        ? t("zone_item.free", { region: fmt.region(r.slice(0, -1)) }) : fmt.region(r))), "and");
      if (name === "regions") return regions(String(value).split("+"));
      if (name === "refused") return fmt.joined(String(value).split("+").map((r) => fmt.region(r)), "or");
      const items = String(value).split(",").map((item) => {
        const [ball, names] = item.split(":");
        return { ball: t("ball." + ball), names: names ? names.split("+") : [] };
      });
      if (name === "left") {
        return items.map((i) => t("zone_item.left", { ball: i.ball, regions: regions(i.names) })).join("; ");
      }
      return items.map((i) => (i.names.length ? t("zone_item.placed", { ball: i.ball, regions: regions(i.names) })
        : t("zone_item.none", { ball: i.ball }))).join(", ");
    },
    // One keyed phrase of the referee ({key, fields}: referee.reason_json) in the page's
    // language: its ball, foul, pin, cushion and place names and its numbers too.
    phrase(p) {
      const fields = { ...(p.fields || {}) };
      for (const name of ["first", "second", "only", "missing", "cue", "opponent", "ball", "other", "taker", "fouler"]) {
        if (typeof fields[name] === "string") fields[name] = t("ball." + fields[name]);
      }
      for (const name of ["pin", "neighbour"]) {
        if (typeof fields[name] === "string") fields[name] = t("pin." + fields[name]);
      }
      if (typeof fields.cushion === "string") fields.cushion = t("side." + fields.cushion);
      if (typeof fields.place === "string") fields.place = t("place." + fields.place);
      if (typeof fields.fouls === "string") fields.fouls = fields.fouls.split(",").map((f) => fmt.title(f)).join(", ");
      if (typeof fields.pins === "string") fields.pins = fields.pins.split(",").map((q) => t("pin." + q)).join(", ");
      // The item fields (referee.ITEM_FIELDS) and what joins their items.
      for (const [name, joiner] of [["items", ", "], ["made", "; "]]) {
        if (typeof fields[name] === "string") fields[name] = fields[name].split(",").map((c) => fmt.pinItem(c)).join(joiner);
      }
      if (typeof fields.layout === "string") fields.layout = fields.layout.split(",").map((c) => fmt.placed(c)).join(", ");
      for (const name of ["group", "regions", "refused", "nth", "balls", "left", "placed"]) {
        if (name in fields) fields[name] = fmt.zoneField(name, fields[name]);
      }
      // A review's codes (referee._review_codes) and the call it would be otherwise.
      if (typeof fields.doubt === "string") fields.doubt = fmt.coded("doubt", fields.doubt);
      if (typeof fields.event === "string") fields.event = fmt.coded("review_event", fields.event);
      if (typeof fields.instead === "string") fields.instead = fmt.said(JSON.parse(fields.instead), "");
      for (const [name, value] of Object.entries(fields)) {
        if (typeof value === "number") fields[name] = fmt.int(value);
      }
      return t("reason." + p.key, fields);
    },
    // A review code ("graze:ball=white:gap_mm=1.2:cushion=left", "text:..."): its
    // message with the names and numbers in the page's language (a text as it is).
    coded(prefix, code) {
      const [name, fields] = fmt.decode(code);
      for (const [field, value] of Object.entries(fields)) {
        if (field === "text") continue;
        if (["ball", "other", "first", "second"].includes(field)) fields[field] = t("ball." + value);
        else if (field === "cushion") fields[field] = t("side." + value);
        else if (field === "pin") fields[field] = t("pin." + value);
        else if (field === "pocket") fields[field] = t("pocket." + value);
        else if (field === "foul") fields[field] = fmt.title(value);
        else if (field === "gaps") {
          fields[field] = value.split(", ").map((g) => g.split("-").map((n) => t(
            (("ball." + n) in i18n.messages ? "ball." : "side.") + n)).join("-")).join(", ");
        } else if (/^[0-9]+(\.[0-9]+)?$/.test(value)) {
          fields[field] = fmt.num(Number(value), (value.split(".")[1] || "").length);
        }
      }
      return t(prefix + "." + name, fields);
    },
    decode(code) {
      const text = String(code);
      const at = text.indexOf(":");
      const name = at < 0 ? text : text.slice(0, at);
      const rest = at < 0 ? "" : text.slice(at + 1);
      if (name === "text" || name === "low_confidence") return [name, { text: rest }];
      const fields = {};
      for (const pair of rest ? rest.split(":") : []) {
        const eq = pair.indexOf("=");
        fields[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      return [name, fields];
    },
    // Whether the page has words for a keyed phrase (and for a review's call otherwise).
    known(p) {
      if (!p || !(("reason." + p.key) in i18n.messages)) return false;
      const f = p.fields || {};
      if (typeof f.doubt === "string" && !(("doubt." + fmt.decode(f.doubt)[0]) in i18n.messages)) return false;
      if (typeof f.event === "string" && !(("review_event." + fmt.decode(f.event)[0]) in i18n.messages)) return false;
      if (typeof f.instead !== "string") return true;
      try { return JSON.parse(f.instead).every((q) => fmt.known(q)); } catch (e) { return false; }
    },
    // Keyed phrases in the page's language, or null where one is not keyed or its key
    // unknown to the page (the referee's English is shown then).
    phrases(parts, count) {
      if (!Array.isArray(parts) || parts.length !== count || i18n.lang === "en") return null;
      if (!parts.every((p) => fmt.known(p))) return null;
      return parts.map((p) => fmt.phrase(p));
    },
    // A verdict's reason in the page's language: its keyed parts joined, else the
    // referee's English sentence.
    reason(shot) {
      return fmt.said(shot && shot.reason_parts, (shot && shot.reason) || "");
    },
    // Why scoring is paused (state.paused), in the page's language where it is keyed
    // (state.paused_parts: carom/web/_paused.py), else the server's sentence.
    paused(state) {
      const p = state && state.paused_parts;
      if (!p || i18n.lang === "en" || !(("pause." + p.key) in i18n.messages)) return (state && state.paused) || "";
      const fields = {};
      for (const [name, value] of Object.entries(p.fields || {})) {
        const text = String(value);
        fields[name] = (text.startsWith("+") ? "+" : "") + fmt.num(Number(text), (text.split(".")[1] || "").length);
      }
      return t("pause." + p.key, fields);
    },
    // Why a shot asks for review (a shot's review, or the one held), in the page's language;
    // ``held`` (pending_review.held_paused): it was played while scoring was paused.
    review(parts, english, held) {
      if (held && i18n.lang !== "en") {
        return t("what.played_paused", { why: fmt.paused({ paused: held.why, paused_parts: held.why_parts }) });
      }
      return fmt.said(parts, english || "");
    },
    // Why the server refused (an ApiError) in the page's language where it is keyed
    // (its parts: refusal.<key>), else the server's sentence.
    refusal(err) {
      const p = err && err.parts;
      if (!p || i18n.lang === "en" || !(("refusal." + p.key) in i18n.messages)) return (err && err.message) || "";
      const fields = { ...(p.fields || {}) };
      if (fields.phase) fields.phase = t("phase." + fields.phase);
      if (fields.decision) fields.decision = t("refusal.decision_" + fields.decision);
      for (const name of ["n", "limit", "points", "wait_s"]) {
        if (name in fields) fields[name] = fmt.int(Number(fields[name]));
      }
      return t("refusal." + p.key, fields);
    },
    // Why the hall's board is behind (state.scoreboard.warning_parts: carom.board), in
    // the page's language; the server's English on an English page or where not keyed.
    boardWarning(board) {
      const p = board && board.warning_parts;
      if (!p || i18n.lang === "en") return (board && board.warning) || "";
      const f = p.fields || {};
      const summary = (s) => (s ? t("board.summary", { a: s.players[0], b: s.players[1],
        sa: fmt.int(s.scores[0]), sb: fmt.int(s.scores[1]), over: t(s.over ? "board.over" : "board.not_over") })
        : t("board.nothing"));
      // The score it took is the one it should show: what waits is a newer clock or shot line.
      const same = !!f.shown && !!f.current && summary(f.shown) === summary(f.current);
      const shows = t(same ? "board.shows_same" : "board.shows", {
        acked: f.shown ? t("board.acked", { summary: summary(f.shown) }) : t("board.acked_none"),
        port: f.port_error ? t("board.port", { error: f.port_error }) : "", current: summary(f.current) });
      return t("board.late", { late_s: fmt.num(f.late_s, Number.isInteger(f.late_s) ? 0 : 1), shows });
    },
    // What the last change was (state.what_parts: carom/live/_account.py) in the page's
    // language, or null where the page has no words for one of its keys (the server's
    // English is shown then). A field given only in words (a correction's note) stays so.
    account(p) {
      if (!p || typeof p !== "object" || !(("what." + p.key) in i18n.messages)) return null;
      const f = p.fields || {};
      const fields = {};
      for (const [name, value] of Object.entries(f)) {
        if (name.endsWith("_parts")) continue; // a pause's keyed reason: said below
        if (value && typeof value === "object" && !Array.isArray(value) && "key" in value) {
          const said = fmt.account(value);
          if (said === null) return null;
          fields[name] = said;
        } else if (typeof value === "number") fields[name] = fmt.int(value);
        else fields[name] = value;
      }
      const signed = (n) => (n >= 0 ? "+" : "") + fmt.int(n);
      // The server's own note (a change made on the web console) in the page's language;
      // a note a person typed stays as typed.
      const note = f.note ? t("what.note", { note: f.note === "web console" ? t("hist.by_web") : f.note }) : "";
      const why = (w, parts) => fmt.paused({ paused: w, paused_parts: parts });
      const extra = {
        shot: () => ({ n: fmt.shotNo(f.n), points: signed(f.points),
          fouls: (f.fouls || []).length ? t("what.fouls", { fouls: f.fouls.map((x) => fmt.title(x)).join(", ") }) : "",
          reason: fmt.said(f.reason_parts, f.reason || ""),
          board: (f.board || []).map(([name, n]) => name + " " + fmt.int(n)).join(", ") }),
        held: () => ({ n: fmt.shotNo(f.n),
          reason: typeof f.reason === "string" ? fmt.review(f.reason_parts, f.reason) : fields.reason }),
        paused: () => ({ why: why(f.why, f.why_parts) }),
        played_paused: () => ({ why: why(f.why, f.why_parts) }),
        review: () => ({ decision: String(f.decision).startsWith("points ")
          ? t("what.decision_points", { points: fmt.int(Number(String(f.decision).slice(7))) })
          : t("what.decision_" + f.decision) }),
        correct_points: () => ({ points: signed(f.points), note }),
        correct_turn: () => ({ note }), correct_turn_back: () => ({ note }), correct_break: () => ({ note }),
        foul_called: () => ({ foul: fmt.title(f.foul) }),
        lag_fault: () => (Array.isArray(f.fault_keys)
          ? { faults: f.fault_keys.map((k) => t("what.lag_" + k)).join("; ") } : {}),
        session: () => ({ how: t("what.how_" + f.how), id: String(f.id), version: String(f.version) }),
        match_started: () => ({ how: t("what.how_" + f.how), id: String(f.id) }),
        match_from_live: () => ({ id: String(f.id) }), match_closed: () => ({ id: String(f.id) }),
      }[p.key];
      return t("what." + p.key, { ...fields, ...(extra ? extra() : {}) });
    },
    // Keyed phrases joined with "; " in the page's language, else the referee's English.
    said(parts, english) {
      const list = Array.isArray(parts) ? parts : [];
      const said = list.length ? fmt.phrases(list, list.length) : null;
      return said ? said.join("; ") : english;
    },
    // The rule that judged a shot a break or play, and its notes (who is at the table,
    // a game's end), in the page's language.
    breakRule(shot) {
      return fmt.said(shot && shot.break_rule_parts, (shot && shot.break_rule) || "");
    },
    note(shot) {
      return fmt.said(shot && shot.note_parts, (shot && shot.note) || "");
    },
    // A verdict's announcements (frozen balls, ball in hand, a wrong break position) in
    // the page's language, each from its keyed phrase, else the referee's English.
    announcements(shot) {
      const english = (shot && shot.announcements) || [];
      return fmt.phrases(shot && shot.announcement_parts, english.length) || english;
    },
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
    node.textContent = t("conn.connecting");
    return (ok) => { node.classList.toggle("live", ok); node.textContent = ok ? t("conn.live") : t("conn.reconnecting"); };
  }

  /* The cue ball each player plays, from the match file of the match on the table:
   * {name: "white"|"yellow"|"dotted"} when every player keeps one (two players: white and
   * yellow unless the file says), {} when the whites rotate or everyone plays the red. */
  async function cueBalls() {
    try {
      const doc = (await api("GET", "/api/match-file")).match || {};
      const players = doc.players || [];
      if (doc.cue_balls && !Array.isArray(doc.cue_balls)) return { ...doc.cue_balls };
      if (players.length === 2 && doc.discipline !== "pin-carom-7" && !Array.isArray(doc.cue_balls)) {
        return { [players[0]]: "white", [players[1]]: "yellow" };
      }
    } catch (err) { /* no match file: no dots */ }
    return {};
  }

  /* A ball dot: a coloured circle with the ball's name as its label. */
  function ballDot(ball, extraClass) {
    if (!ball) return null;
    return el("span", { class: `ball ball-${ball}` + (extraClass ? " " + extraClass : ""), "data-ball": ball,
      role: "img", "aria-label": t("ball." + ball), title: t("ball." + ball) });
  }

  window.Carom = { el, api, ApiError, live, shotClock, timeUp, token, setToken, tokenDialog, requireToken,
    withToken, fmt, setStatus, connBadge, t, translate, ready, i18n, cueBalls, ballDot, followLanguage };
})();
