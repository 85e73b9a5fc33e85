/* The console's match form: the match-file structure (docs/match-file.md) in and out.
 *
 * CaromMatchForm.body()      the form as a match file (what POST /api/matches takes)
 * CaromMatchForm.fill(doc)   show a match file in the form
 * CaromMatchForm.init(say)   the rule options and defaults from GET /api/match-file, the
 *                            server's set-up in the form, Load / Save match file wired
 */
(function () {
  "use strict";
  const { el, api } = Carom;
  const $ = (id) => document.getElementById(id);
  let defaults = { rules: {}, clock: {} };

  const num = (id) => { const raw = $(id).value.trim(); return raw === "" ? null : Number(raw); };
  const put = (id, v) => { $(id).value = v === null || v === undefined ? "" : String(v); };
  const players = () => [$("f-p1").value.trim(), $("f-p2").value.trim()];
  const pick = (names, v) => (v ? names[Number(v) - 1] : null);
  const which = (names, name) => (name === names[0] ? "1" : name === names[1] ? "2" : "");

  function renderRules() {
    // A choice per option: blank keeps the default (follow_cue_ball: on with a camera).
    $("f-rules").replaceChildren(...Object.entries(defaults.rules).map(([name, value]) => {
      const shown = value === null ? "none" : String(value);
      const input = typeof value === "boolean"
        ? el("select", { "data-rule": name, "data-kind": "bool" },
          el("option", { value: "", text: `default (${shown})` }),
          el("option", { value: "true", text: "true" }), el("option", { value: "false", text: "false" }))
        : el("input", { "data-rule": name, type: "number", min: "0", step: "any", placeholder: shown });
      return el("label", { title: name }, name, input);
    }));
  }

  function perPlayer(names, a, b) {
    const out = {};
    if (a !== null) out[names[0]] = a;
    if (b !== null) out[names[1]] = b;
    return out;
  }

  function rulesBody() {
    const rules = {};
    for (const input of document.querySelectorAll("[data-rule]")) {
      const raw = input.value.trim();
      if (raw === "") continue;
      rules[input.dataset.rule] = input.dataset.kind === "bool" ? raw === "true" : Number(raw);
    }
    return rules;
  }

  function clockBody() {
    const length = num("f-clock"), d = defaults.clock;
    const clock = { enabled: !!length, extensions: num("f-timeouts") ?? d.extensions, expiry: $("f-expiry").value };
    if (length) clock.length_s = length;
    const warning = num("f-warning"), extension = num("f-extension");
    if (warning !== null) clock.warning_s = warning;
    else if (length && length < d.warning_s) clock.warning_s = length;
    if (extension !== null) clock.extension_s = extension;
    return clock;
  }

  function startBody(names) {
    const start = {};
    const board = perPlayer(names, num("f-s-board1"), num("f-s-board2"));
    const innings = perPlayer(names, num("f-s-innings1"), num("f-s-innings2"));
    const sets = perPlayer(names, num("f-s-sets1"), num("f-s-sets2"));
    if (Object.keys(board).length) start.board = board;
    if (Object.keys(innings).length) start.innings = innings;
    if (Object.keys(sets).length) start.sets_won = sets;
    const shooter = pick(names, $("f-s-shooter").value), breaker = pick(names, $("f-s-breaker").value);
    if (shooter) start.shooter = shooter;
    if (breaker) start.breaker = breaker;
    if (num("f-s-run") !== null) start.run = num("f-s-run");
    if (num("f-s-set") !== null) start.set_index = num("f-s-set");
    if ($("f-s-break").value) start.next_break = $("f-s-break").value === "yes";
    return start;
  }

  function body() {
    const names = players();
    const doc = { format: "carom-match/1", discipline: $("f-discipline").value, players: names };
    if ($("f-table").value.trim()) doc.table = $("f-table").value.trim();
    const b1 = $("f-ball1").value, b2 = $("f-ball2").value;
    if (b1 !== "white" || b2 !== "yellow") doc.cue_balls = { [names[0]]: b1, [names[1]]: b2 };
    const first = pick(names, $("f-first").value);
    if (first) doc.first_player = first;
    const t1 = num("f-t1"), t2 = num("f-t2");
    // One number for both, or a handicap; a blank target copies the other one.
    if (t1 !== null || t2 !== null) {
      const a = t1 ?? t2, b = t2 ?? t1;
      doc.target = a === b ? a : { [names[0]]: a, [names[1]]: b };
    }
    if (num("f-innings") !== null) doc.innings_limit = num("f-innings");
    doc.sets = num("f-sets") || 1;
    doc.equalizing = $("f-equalizing").checked;
    doc.equalizing_from_break = $("f-eq-break").checked;
    if (num("f-start-count") !== null) doc.start_count = num("f-start-count");
    const rules = rulesBody();
    if (Object.keys(rules).length) doc.rules = rules;
    doc.clock = clockBody();
    if ($("f-s-on").checked) doc.start = startBody(names);
    return doc;
  }

  function fillClock(clock) {
    const c = { ...defaults.clock, ...(clock || {}) };
    put("f-clock", c.enabled === false ? null : c.length_s);
    put("f-timeouts", c.extensions);
    put("f-warning", clock && clock.warning_s !== undefined ? clock.warning_s : null);
    put("f-extension", clock && clock.extension_s !== undefined ? clock.extension_s : null);
    if (c.expiry) $("f-expiry").value = c.expiry;
  }

  function fillStart(start, names) {
    const s = start || {};
    const of = (m, i) => (m && m[names[i]] !== undefined ? m[names[i]] : null);
    $("f-s-on").checked = !!start;
    $("f-start-box").open = !!start;
    put("f-s-board1", of(s.board, 0)); put("f-s-board2", of(s.board, 1));
    put("f-s-innings1", of(s.innings, 0)); put("f-s-innings2", of(s.innings, 1));
    put("f-s-sets1", of(s.sets_won, 0)); put("f-s-sets2", of(s.sets_won, 1));
    $("f-s-shooter").value = which(names, s.shooter);
    $("f-s-breaker").value = which(names, s.breaker);
    put("f-s-run", s.run); put("f-s-set", s.set_index);
    $("f-s-break").value = s.next_break === true ? "yes" : s.next_break === false ? "no" : "";
  }

  function fill(doc) {
    const names = doc.players || ["A", "B"];
    $("f-discipline").value = doc.discipline || "three-cushion";
    put("f-p1", names[0]); put("f-p2", names[1]);
    const table = doc.table;
    put("f-table", table && typeof table === "object" ? `${table.length_mm}x${table.width_mm}` : table);
    const balls = doc.cue_balls || {};
    $("f-ball1").value = balls[names[0]] || "white";
    $("f-ball2").value = balls[names[1]] || "yellow";
    $("f-first").value = which(names, doc.first_player);
    const target = doc.target;
    const t = (i) => (target === undefined || target === null ? null : typeof target === "number" ? target : target[names[i]]);
    put("f-t1", t(0)); put("f-t2", t(1));
    put("f-innings", doc.innings_limit); put("f-sets", doc.sets || 1);
    $("f-equalizing").checked = doc.equalizing !== false;
    $("f-eq-break").checked = doc.equalizing_from_break !== false;
    put("f-start-count", doc.start_count);
    for (const input of document.querySelectorAll("[data-rule]")) {
      const v = doc.rules ? doc.rules[input.dataset.rule] : undefined;
      input.value = v === undefined || v === null ? "" : String(v);
    }
    $("f-rules-box").open = !!(doc.rules && Object.keys(doc.rules).length);
    fillClock(doc.clock);
    fillStart(doc.start, names);
  }

  function download(name, text) {
    const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/toml" })), download: name });
    document.body.append(link);
    link.click();
    link.remove();
  }

  async function init(say) {
    let touched = false; // what a person typed before the set-up arrived is kept
    $("start-form").addEventListener("input", () => { touched = true; }, { once: true });
    try {
      const current = await api("GET", "/api/match-file");
      defaults = current.defaults;
      renderRules();
      if (!touched) fill(current.match);
    } catch (err) {
      say("match form: " + err.message, "error");
    }
    $("load-button").addEventListener("click", () => $("load-file").click());
    $("load-file").addEventListener("change", async (ev) => {
      const file = ev.target.files[0];
      if (!file) return;
      try {
        const read = await api("POST", "/api/match-file/parse", { text: await file.text() });
        fill(read.match);
        say(`load match file ${file.name}: done`, "ok");
      } catch (err) {
        say(`load match file ${file.name}: ${err.message}`, "error");
      }
      ev.target.value = "";
    });
    $("save-button").addEventListener("click", async () => {
      try {
        const saved = await api("POST", "/api/match-file/toml", body());
        download("match.toml", saved.toml);
        say("save match file: done", "ok");
      } catch (err) {
        say("save match file: " + err.message, "error");
      }
    });
  }

  window.CaromMatchForm = { body, fill, init };
})();
