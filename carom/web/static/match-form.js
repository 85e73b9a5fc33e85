/* The console's match form: the match-file structure (docs/match-file.md) in and out.
 *
 * CaromMatchForm.body()      the form as a match file (what POST /api/matches takes)
 * CaromMatchForm.fill(doc)   show a match file in the form
 * CaromMatchForm.init(say)   the rule options and defaults from GET /api/match-file, the
 *                            server's set-up in the form, Load / Save match file wired
 *
 * Players: 2 to 8 rows (name, target, cue ball), added and removed; seat i's fields are
 * f-p{i}, f-t{i}, f-ball{i} and, joining a match in progress, f-s-board{i},
 * f-s-innings{i}, f-s-sets{i}. Cue balls: with two players (or an even number that
 * keep balls) one per player; otherwise the two whites that rotate, written as the
 * match file's list (["white", "dotted"]) when not white and yellow.
 */
(function () {
  "use strict";
  const { el, api, t } = Carom;
  const $ = (id) => document.getElementById(id);
  let defaults = { rules: {}, clock: {} };
  const MIN_PLAYERS = 2, MAX_PLAYERS = 8;
  const BALLS = ["white", "yellow", "dotted"]; // names: the catalogue's ball.<name>

  const num = (id) => { const raw = $(id).value.trim(); return raw === "" ? null : Number(raw); };
  const put = (id, v) => { $(id).value = v === null || v === undefined ? "" : String(v); };
  const count = () => $("f-players").children.length;
  const seats = () => Array.from({ length: count() }, (_, i) => i + 1);
  const players = () => seats().map((i) => $(`f-p${i}`).value.trim());
  const pick = (names, v) => (v ? names[Number(v) - 1] : null);
  const which = (names, name) => (names.includes(name) ? String(names.indexOf(name) + 1) : "");
  const keepsBalls = () => count() === 2 || (count() % 2 === 0 && $("f-keep").checked);

  function playerRow(i) {
    const ball = el("select", { id: `f-ball${i}`, "data-role": "ball" },
      ...BALLS.map((value) => el("option", { value, text: t("ball." + value) })));
    ball.value = i % 2 ? "white" : "yellow";
    return el("div", { class: "player-row", "data-seat": i },
      el("label", {}, t("form.player_n", { n: i }) + " ", el("input", { id: `f-p${i}`, required: true, autocomplete: "off",
        value: String.fromCharCode(64 + i), "data-role": "name", oninput: choices })),
      el("label", {}, t("form.target") + " ", el("input", { id: `f-t${i}`, type: "number", min: "1",
        placeholder: i === 1 ? t("form.target_default") : t("form.target_same") })),
      el("label", { class: "ball-label" }, t("form.cue_ball") + " ", ball),
      el("button", { type: "button", "data-role": "remove", title: t("form.remove_n", { n: i }),
        onclick: () => removePlayer(i) }, t("form.remove")));
  }

  function startRow(i) {
    const field = (id, label, placeholder) =>
      el("label", {}, t(label, { n: i }) + " ", el("input", { id, type: "number", min: "0", placeholder }));
    return [field(`f-s-board${i}`, "form.start_score", t("con.unknown")), field(`f-s-innings${i}`, "form.start_innings", t("con.unknown")),
      field(`f-s-sets${i}`, "form.start_sets", "0")];
  }

  // Rows for n players; the fields of the seats kept keep what they hold.
  function setCount(n) {
    n = Math.max(MIN_PLAYERS, Math.min(MAX_PLAYERS, n));
    while (count() < n) $("f-players").append(playerRow(count() + 1));
    while (count() > n) $("f-players").lastElementChild.remove();
    const start = $("f-start-players");
    while (start.children.length < 3 * n) start.append(...startRow(start.children.length / 3 + 1));
    while (start.children.length > 3 * n) start.lastElementChild.remove();
    layout();
  }

  // Removing seat i moves the players after it up one seat (names, targets, balls, start).
  function removePlayer(i) {
    const n = count();
    if (n <= MIN_PLAYERS) return;
    for (let k = i; k < n; k += 1) {
      for (const f of ["f-p", "f-t", "f-ball", "f-s-board", "f-s-innings", "f-s-sets"]) {
        $(`${f}${k}`).value = $(`${f}${k + 1}`).value;
      }
    }
    setCount(n - 1);
  }

  // What the number of players allows: the ball per player or the rotating pair.
  function layout() {
    const n = count(), keep = keepsBalls();
    $("f-keep-label").classList.toggle("hidden", n === 2 || n % 2 === 1);
    $("f-rotation-label").classList.toggle("hidden", keep);
    for (const label of document.querySelectorAll("#f-players .ball-label")) label.classList.toggle("hidden", !keep);
    for (const b of document.querySelectorAll("#f-players [data-role=remove]")) b.disabled = n <= MIN_PLAYERS;
    $("f-add-player").disabled = n >= MAX_PLAYERS;
    choices();
  }

  // The seat choices (who breaks, who is at the table, who broke) follow the names.
  function choices() {
    const names = players();
    const fill = (id, blank) => {
      const select = $(id), value = select.value;
      select.replaceChildren(el("option", { value: "", text: blank }),
        ...names.map((name, k) => el("option", { value: String(k + 1),
          text: name ? t("form.seat_named", { n: k + 1, name }) : t("form.seat", { n: k + 1 }) })));
      select.value = Number(value) <= names.length ? value : "";
    };
    fill("f-first", t("con.lag"));
    fill("f-s-shooter", t("con.the_ball_tells"));
    fill("f-s-breaker", t("con.unknown"));
  }

  function renderRules() {
    // A choice per option: blank keeps the default (follow_cue_ball: on with a camera).
    $("f-rules").replaceChildren(...Object.entries(defaults.rules).map(([name, value]) => {
      const shown = value === null ? t("con.none") : typeof value === "boolean" ? t(value ? "form.yes" : "form.no") : String(value);
      const input = typeof value === "boolean"
        ? el("select", { "data-rule": name, "data-kind": "bool" },
          el("option", { value: "", text: t("form.default", { value: shown }) }),
          el("option", { value: "true", text: t("form.yes") }), el("option", { value: "false", text: t("form.no") }))
        : el("input", { "data-rule": name, type: "number", min: "0", step: "any", placeholder: shown });
      return el("label", { title: name }, name, input);
    }));
  }

  // A map player -> the number in field `${prefix}${seat}` (blank fields left out).
  function perPlayer(names, prefix) {
    const out = {};
    names.forEach((name, k) => { const v = num(`${prefix}${k + 1}`); if (v !== null) out[name] = v; });
    return out;
  }

  function ballsBody(names) {
    if (keepsBalls()) {
      const balls = names.map((_, k) => $(`f-ball${k + 1}`).value);
      const plain = names.length === 2 && balls[0] === "white" && balls[1] === "yellow";
      return plain ? null : Object.fromEntries(names.map((name, k) => [name, balls[k]]));
    }
    return $("f-rotation").value === "dotted" ? ["white", "dotted"] : null;
  }

  // One number for everybody, or a handicap; a blank target copies player 1's (or the first given).
  function targetBody(names) {
    const given = names.map((_, k) => num(`f-t${k + 1}`));
    const first = given.find((t) => t !== null);
    if (first === undefined) return null;
    const all = given.map((t) => t ?? first);
    return all.every((t) => t === all[0]) ? all[0] : Object.fromEntries(names.map((name, k) => [name, all[k]]));
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
    const board = perPlayer(names, "f-s-board");
    const innings = perPlayer(names, "f-s-innings");
    const sets = perPlayer(names, "f-s-sets");
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
    const balls = ballsBody(names);
    if (balls) doc.cue_balls = balls;
    const first = pick(names, $("f-first").value);
    if (first) doc.first_player = first;
    const target = targetBody(names);
    if (target !== null) doc.target = target;
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

  // A map: every player keeps a ball; a list: the rotating pair; none: the defaults.
  function fillBalls(balls, names) {
    const kept = balls && !Array.isArray(balls) ? balls : {};
    $("f-keep").checked = names.length > 2 && Object.keys(kept).length > 0;
    $("f-rotation").value = Array.isArray(balls) && balls.includes("dotted") ? "dotted" : "yellow";
    names.forEach((name, k) => { $(`f-ball${k + 1}`).value = kept[name] || (k % 2 ? "yellow" : "white"); });
    layout();
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
    names.forEach((_, k) => {
      put(`f-s-board${k + 1}`, of(s.board, k));
      put(`f-s-innings${k + 1}`, of(s.innings, k));
      put(`f-s-sets${k + 1}`, of(s.sets_won, k));
    });
    $("f-s-shooter").value = which(names, s.shooter);
    $("f-s-breaker").value = which(names, s.breaker);
    put("f-s-run", s.run); put("f-s-set", s.set_index);
    $("f-s-break").value = s.next_break === true ? "yes" : s.next_break === false ? "no" : "";
  }

  function fill(doc) {
    const names = doc.players || ["A", "B"];
    $("f-discipline").value = doc.discipline || "three-cushion";
    setCount(names.length);
    names.forEach((name, k) => put(`f-p${k + 1}`, name));
    const table = doc.table;
    put("f-table", table && typeof table === "object" ? `${table.length_mm}x${table.width_mm}` : table);
    fillBalls(doc.cue_balls, names);
    choices();
    $("f-first").value = which(names, doc.first_player);
    const target = doc.target;
    const t = (i) => (target === undefined || target === null ? null : typeof target === "number" ? target : target[names[i]]);
    names.forEach((_, k) => put(`f-t${k + 1}`, t(k)));
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
    setCount(MIN_PLAYERS);
    $("f-add-player").addEventListener("click", () => setCount(count() + 1));
    $("f-keep").addEventListener("change", layout);
    // What a person typed or changed (a player row added or removed: a click) before the
    // set-up arrived is kept, not overwritten by it.
    let touched = false;
    $("start-form").addEventListener("input", () => { touched = true; });
    $("start-form").addEventListener("click", (ev) => { if (ev.target.closest("button")) touched = true; });
    try {
      const current = await api("GET", "/api/match-file");
      defaults = current.defaults;
      renderRules();
      if (!touched) fill(current.match);
    } catch (err) {
      say(t("form.error", { why: Carom.fmt.refusal(err) }), "error");
    }
    $("load-button").addEventListener("click", () => $("load-file").click());
    $("load-file").addEventListener("change", async (ev) => {
      const file = ev.target.files[0];
      if (!file) return;
      try {
        const read = await api("POST", "/api/match-file/parse", { text: await file.text() });
        fill(read.match);
        say(t("form.loaded", { name: file.name }), "ok");
      } catch (err) {
        say(t("form.load_error", { name: file.name, why: err.message }), "error");
      }
      ev.target.value = "";
    });
    $("save-button").addEventListener("click", async () => {
      try {
        const saved = await api("POST", "/api/match-file/toml", body());
        download("match.toml", saved.toml);
        say(t("form.saved"), "ok");
      } catch (err) {
        say(t("form.save_error", { why: err.message }), "error");
      }
    });
  }

  window.CaromMatchForm = { body, fill, init };
})();
