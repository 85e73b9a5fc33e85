/* Referee console: start a match, watch the verdicts, make calls, settle reviews. */
(function () {
  "use strict";
  const { el, api, fmt, t } = Carom;
  const $ = (id) => document.getElementById(id);
  // referee.CALL_FOULS: what a person may call (what a camera cannot see).
  const FOULS = ["double_hit", "push", "touch", "foot", "miscue", "balls_moving", "illegal_jump",
    "wrong_ball", "shot_clock", "jump_over_pins"];
  const PIN_GAMES = ["five-pins", "pin-carom-7"];
  let current = null;

  function status(message, kind) { Carom.setStatus($("status"), message, kind); }

  async function act(label, method, path, body) {
    status(label + "…");
    try {
      const state = await api(method, path, body);
      status(t("con.done", { action: label }), "ok");
      // The stream may already have brought something newer than this answer.
      if (state && typeof state.version === "number" && (!current || state.version >= current.version)) render(state);
      return state;
    } catch (err) {
      status(`${label}: ${fmt.refusal(err)}`, "error");
      return null;
    }
  }

  // The form is the match file's structure (docs/match-file.md): static/match-form.js.
  function startBody() { return CaromMatchForm.body(); }

  const clockLine = Carom.shotClock((c, remaining) => {
    const rule = c && c.expiry === "foul" ? t("con.clock_rule_foul") : t("con.clock_rule_warn");
    let text = "";
    if (c && Carom.timeUp(c, remaining)) {
      text = c.expiry === "foul" ? t("con.clock_up_foul") : t("con.clock_up_warn");
    } else if (c) {
      text = (c.running ? t("con.clock_running", { s: fmt.clock(remaining) }) : t("con.clock_stopped")) + " · " + rule;
    }
    $("clock-line").textContent = text;
    $("clock-line").className = c && Carom.timeUp(c, remaining) ? "muted time-up" : "muted";
  });

  function call(body, label) { return act(label, "POST", "/api/calls", body); }

  function renderScore(match) {
    $("score").replaceChildren(...match.players.map((p) => el("div", {
      class: "con-player" + (match.shooter === p.name && match.phase === "playing" ? " shooter" : ""),
      "data-player": p.name },
      el("div", {}, Carom.ballDot(balls[p.name], "con-ball"), el("span", { text: p.name })),
      el("div", { class: "pts", "data-role": "points", text: fmt.int(p.points) }),
      el("div", { class: "muted", text: t("con.player_stats", { innings: fmt.int(p.innings), avg: fmt.avg(p.average),
        hr: fmt.int(p.high_run), run: fmt.int(p.run) }) }))));
  }

  function renderCalls(match) {
    const running = !!match && match.phase !== "over";
    const fouls = FOULS.filter((f) => f !== "jump_over_pins" || (match && PIN_GAMES.includes(match.discipline)));
    $("foul-buttons").replaceChildren(...fouls.map((f) => el("button", {
      type: "button", "data-foul": f, disabled: !running,
      onclick: () => call({ kind: "foul", foul: f }, t("con.act_foul", { foul: fmt.title(f) })) }, fmt.title(f))));
    const names = match ? match.players.map((p) => p.name) : [];
    $("timeout-buttons").replaceChildren(...names.map((n) => el("button", {
      type: "button", disabled: !running, onclick: () => call({ kind: "timeout", player: n }, t("con.act_timeout", { name: n })) },
      t("con.timeout_for", { name: n }))));
    $("turn-buttons").replaceChildren(...names.map((n) => el("button", {
      type: "button", disabled: !running, onclick: () => call({ kind: "turn", player: n }, t("con.act_turn", { name: n })) },
      t("con.turn_to", { name: n }))), el("button", { type: "button", disabled: !running,
      onclick: () => call({ kind: "break" }, t("con.act_break")) }, t("con.break_position")));
    const select = $("c-player");
    if (select.dataset.names !== names.join("\n")) {
      select.replaceChildren(...names.map((n) => el("option", { value: n, text: n })));
      select.dataset.names = names.join("\n");
    }
    $("undo").disabled = !match;
    $("close-match").disabled = !match;
    $("c-apply").disabled = !match;
  }

  function logLine(state) {
    if (!state.what || (current && current.version === state.version)) return;
    const log = $("log");
    // In the page's language where the line is keyed (state.what_parts), else as said.
    const what = (Carom.i18n.lang !== "en" && fmt.account(state.what_parts)) || state.what;
    if (log.firstChild && log.firstChild.textContent === what) return; // a clock tick
    // One line each (the whole line on a click): the long reason is read in full once,
    // under the verdict or in the review, not again here.
    log.prepend(el("li", { value: state.version, title: what, text: what,
      onclick: (ev) => ev.currentTarget.classList.toggle("open") }));
    while (log.children.length > 12) log.lastChild.remove();
  }

  function render(state) {
    logLine(state);
    current = state;
    const match = state.match;
    // A board that never took the score is said here, in red, until it does (docs/live.md).
    const board = state.scoreboard && state.scoreboard.warning ? fmt.boardWarning(state.scoreboard) : "";
    if (match && ballsFor !== match.id) loadBalls(match.id);
    $("camera").textContent = t("con.camera", { camera: t("camera." + state.camera) }) +
      (state.paused ? " · " + t("banner.paused", { why: fmt.paused(state) }) : "") +
      (board ? ` · ${board}` : "");
    $("camera").className = board ? "status error" : "muted";
    $("start").classList.toggle("hidden", !!match && match.phase !== "over");
    $("live-title").textContent = match
      ? t("con.match_title", { id: match.id, discipline: fmt.title(match.discipline) }) +
        (match.winner ? " · " + t("banner.wins", { name: match.winner }) : "")
      : t("con.no_match_running");
    if (match) renderScore(match); else $("score").replaceChildren();
    $("inning").textContent = match ? t("sb.inning", { n: fmt.int(match.inning) }) +
      (match.equalizing ? " · " + t("sb.equalizing") : "") + " · " + t("phase." + match.phase) : "";
    const shot = state.last_shot;
    $("verdict").textContent = shot ? t("sb.shot_line", { n: fmt.shotNo(shot.n), shooter: shot.shooter,
      verdict: t("verdict." + shot.verdict) + (shot.verdict === "point" ? " +" + fmt.int(shot.points) : "") }) : "–";
    $("verdict").className = "con-verdict" + (shot ? " verdict-" + shot.verdict : "");
    $("reason").textContent = shot ? [fmt.reason(shot), shot.break ? fmt.breakRule(shot) : "",
      ...fmt.announcements(shot), fmt.note(shot)].filter(Boolean).join(" · ") : "";
    clockLine(match && match.shot_clock);
    renderCalls(match);
    renderReview(state.pending_review);
  }

  // ---- review: diagram + a short replay of the frames ----
  const replay = { key: null, frames: [], fps: 10, i: 0, timer: null };

  function renderReview(pending) {
    $("review").classList.toggle("hidden", !pending);
    if (!pending) { stopReplay(); replay.key = null; return; }
    $("review-shot").textContent = t("con.review_shot", { n: fmt.shotNo(pending.shot_n) }) +
      (pending.shooter ? ` · ${pending.shooter}` : "");
    $("review-reason").textContent = fmt.review(pending.reason_parts, pending.reason, pending.held_paused);
    const pts = (x) => (typeof x === "number" ? " · " + t(x === 1 ? "con.pt_one" : "con.pts", { n: fmt.int(x) }) : "");
    $("review-accept").textContent = t("con.accept_count_the_shot") + pts(pending.if_accepted);
    $("review-reject").textContent = t("con.reject") + pts(pending.if_rejected);
    const key = `${pending.shot_n}|${pending.diagram_url}`;
    if (replay.key === key) return;
    replay.key = key;
    $("review-diagram").src = fmt.inLang(pending.diagram_url);
    loadReplay(pending.replay_url || "/api/review/replay");
  }

  async function loadReplay(url) {
    stopReplay();
    // Hidden until frames come: a shot without them (no camera) never shows an empty player.
    $("replay").classList.add("hidden");
    try {
      const data = await api("GET", url);
      replay.frames = (data && data.frames) || [];
      replay.fps = (data && data.fps) || 10;
    } catch (err) {
      replay.frames = [];
      status(t("con.replay_error", { why: err.message }), "error");
    }
    // Preload so the player does not flicker while playing.
    replay.frames.forEach((src) => { const img = new Image(); img.src = src; });
    $("replay-seek").max = String(Math.max(0, replay.frames.length - 1));
    $("replay").classList.toggle("hidden", replay.frames.length === 0);
    showFrame(0);
    if (replay.frames.length) playReplay();
  }

  function showFrame(i) {
    replay.i = i;
    const n = replay.frames.length;
    if (n) $("replay-frame").src = replay.frames[i];
    $("replay-seek").value = String(i);
    $("replay-info").textContent = n ? t("con.frame_of", { i: i + 1, n, fps: fmt.num(replay.fps, 0) }) : t("con.no_frames");
  }

  function playReplay() {
    stopReplay();
    if (!replay.frames.length) return;
    $("replay-play").textContent = t("con.pause");
    replay.timer = setInterval(() => showFrame((replay.i + 1) % replay.frames.length), 1000 / replay.fps);
  }

  function stopReplay() {
    if (replay.timer) clearInterval(replay.timer);
    replay.timer = null;
    $("replay-play").textContent = t("con.play");
  }

  function decide(decision) {
    const body = { kind: "decision", decision, points: null };
    if (decision === "points") body.points = Number($("review-points").value || 0);
    return call(body, t("con.act_review_" + decision));
  }

  function wire() {
    $("start-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      act(t("con.act_start"), "POST", "/api/matches", startBody());
    });
    $("undo").addEventListener("click", () => call({ kind: "undo" }, t("con.act_undo")));
    $("close-match").addEventListener("click", () => {
      if (confirm(t("con.close_confirm"))) act(t("con.act_close"), "POST", "/api/matches/close");
    });
    $("correction-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      call({ kind: "correction", player: $("c-player").value, points: Number($("c-points").value) }, t("con.act_correction"));
    });
    $("review-accept").addEventListener("click", () => decide("accept"));
    $("review-reject").addEventListener("click", () => decide("reject"));
    $("review-award").addEventListener("click", () => decide("points"));
    $("replay-play").addEventListener("click", () => (replay.timer ? stopReplay() : playReplay()));
    $("replay-seek").addEventListener("input", (ev) => { stopReplay(); showFrame(Number(ev.target.value)); });
    $("token-button").addEventListener("click", () => Carom.tokenDialog());
    document.addEventListener("carom-token", () => status(t("con.token_saved"), "ok"));
    $("language").addEventListener("change", async (ev) => {
      const language = ev.target.value || null;
      if (await act(t("con.act_language"), "POST", "/api/settings/language", { language })) {
        // The page itself in the new language (a ?lang= in the address would override it).
        const url = new URL(location.href);
        url.searchParams.delete("lang");
        location.replace(url.toString());
      }
    });
  }

  function languages() {
    const select = $("language");
    select.append(...Object.entries(Carom.i18n.languages).map(([code, name]) => el("option", { value: code, text: name })));
    select.value = Carom.i18n.table || "";
  }

  // Each player's cue ball (the match file of the match on the table).
  let balls = {}, ballsFor = null;
  async function loadBalls(id) {
    ballsFor = id;
    balls = await Carom.cueBalls();
    if (current && current.match) renderScore(current.match);
  }

  Carom.ready.then(() => {
    $("replay-info").textContent = t("con.no_frames");
    $("review-accept").textContent = t("con.accept_count_the_shot");
    $("review-reject").textContent = t("con.reject_no_point");
    stopReplay();
    languages();
    wire();
    CaromMatchForm.init(status);
    render({ version: -1, camera: "none", paused: null, match: null, last_shot: null, pending_review: null });
    Carom.live(render, Carom.connBadge($("conn")));
    Carom.requireToken(); // the console's every action needs it: asked for at once
  });
  window.caromConsole = { state: () => current };
})();
