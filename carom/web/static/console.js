/* Referee console: start a match, watch the verdicts, make calls, settle reviews. */
(function () {
  "use strict";
  const { el, api, fmt } = Carom;
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
      status(label + ": done", "ok");
      // The stream may already have brought something newer than this answer.
      if (state && typeof state.version === "number" && (!current || state.version >= current.version)) render(state);
      return state;
    } catch (err) {
      status(`${label}: ${err.message}`, "error");
      return null;
    }
  }

  // The form is the match file's structure (docs/match-file.md): static/match-form.js.
  function startBody() { return CaromMatchForm.body(); }

  const clockLine = Carom.shotClock((c, remaining) => {
    const rule = c && c.expiry === "foul" ? "a foul when time is up" : "a warning when time is up";
    let text = "";
    if (c && Carom.timeUp(c, remaining)) {
      text = c.expiry === "foul" ? "shot clock: time up, the stroke is a foul (undo takes it back)"
        : "shot clock: time up (warning only; the foul shot_clock is a call)";
    } else if (c) {
      text = `shot clock ${c.running ? fmt.clock(remaining) + " s" : "stopped"} · ${rule}`;
    }
    $("clock-line").textContent = text;
    $("clock-line").className = c && Carom.timeUp(c, remaining) ? "muted time-up" : "muted";
  });

  function call(body, label) { return act(label, "POST", "/api/calls", body); }

  function renderScore(match) {
    $("score").replaceChildren(...match.players.map((p) => el("div", {
      class: "con-player" + (match.shooter === p.name && match.phase === "playing" ? " shooter" : ""),
      "data-player": p.name },
      el("div", { text: p.name }),
      el("div", { class: "pts", "data-role": "points", text: fmt.int(p.points) }),
      el("div", { class: "muted", text: `inn ${p.innings} · avg ${fmt.avg(p.average)} · HR ${p.high_run} · run ${p.run}` }))));
  }

  function renderCalls(match) {
    const running = !!match && match.phase !== "over";
    const fouls = FOULS.filter((f) => f !== "jump_over_pins" || (match && PIN_GAMES.includes(match.discipline)));
    $("foul-buttons").replaceChildren(...fouls.map((f) => el("button", {
      type: "button", "data-foul": f, disabled: !running,
      onclick: () => call({ kind: "foul", foul: f }, "foul " + fmt.title(f)) }, fmt.title(f))));
    const names = match ? match.players.map((p) => p.name) : [];
    $("timeout-buttons").replaceChildren(...names.map((n) => el("button", {
      type: "button", disabled: !running, onclick: () => call({ kind: "timeout", player: n }, "time-out " + n) },
      "Time-out " + n)));
    $("turn-buttons").replaceChildren(...names.map((n) => el("button", {
      type: "button", disabled: !running, onclick: () => call({ kind: "turn", player: n }, "turn to " + n) },
      "Turn to " + n)), el("button", { type: "button", disabled: !running,
      onclick: () => call({ kind: "break" }, "break position") }, "Break position"));
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
    if (log.firstChild && log.firstChild.textContent === state.what) return; // a clock tick
    log.prepend(el("li", { value: state.version, title: `state version ${state.version}`, text: state.what }));
    while (log.children.length > 12) log.lastChild.remove();
  }

  function render(state) {
    logLine(state);
    current = state;
    const match = state.match;
    // A board that never took the score is said here, in red, until it does (docs/live.md).
    const board = state.scoreboard && state.scoreboard.warning;
    $("camera").textContent = `camera: ${state.camera}` + (state.paused ? ` · paused: ${state.paused}` : "") +
      (board ? ` · ${board}` : "");
    $("camera").className = board ? "status error" : "muted";
    $("start").classList.toggle("hidden", !!match && match.phase !== "over");
    $("live-title").textContent = match
      ? `Match ${match.id} · ${fmt.title(match.discipline)}${match.winner ? ` · ${match.winner} wins` : ""}`
      : "No match running";
    if (match) renderScore(match); else $("score").replaceChildren();
    $("inning").textContent = match ? `inning ${match.inning}${match.equalizing ? " (equalizing)" : ""} · ${match.phase}` : "";
    const shot = state.last_shot;
    $("verdict").textContent = shot ? `Shot ${fmt.shotNo(shot.n)} · ${shot.shooter}: ${shot.verdict}${shot.verdict === "point" ? " +" + shot.points : ""}` : "–";
    $("verdict").className = "con-verdict" + (shot ? " verdict-" + shot.verdict : "");
    $("reason").textContent = shot ? [shot.reason, shot.break ? shot.break_rule : "",
      ...(shot.announcements || []), shot.note || ""].filter(Boolean).join(" · ") : "";
    clockLine(match && match.shot_clock);
    renderCalls(match);
    renderReview(state.pending_review);
  }

  // ---- review: diagram + a short replay of the frames ----
  const replay = { key: null, frames: [], fps: 10, i: 0, timer: null };

  function renderReview(pending) {
    $("review").classList.toggle("hidden", !pending);
    if (!pending) { stopReplay(); replay.key = null; return; }
    $("review-reason").textContent = `shot ${fmt.shotNo(pending.shot_n)}` +
      (pending.shooter ? ` · ${pending.shooter}` : "") + ` — ${pending.reason}`;
    const pts = (x) => (typeof x === "number" ? ` · ${x} pt${x === 1 ? "" : "s"}` : "");
    $("review-accept").textContent = "Accept (count the shot)" + pts(pending.if_accepted);
    $("review-reject").textContent = "Reject" + pts(pending.if_rejected);
    const key = `${pending.shot_n}|${pending.diagram_url}`;
    if (replay.key === key) return;
    replay.key = key;
    $("review-diagram").src = pending.diagram_url;
    loadReplay(pending.replay_url || "/api/review/replay");
  }

  async function loadReplay(url) {
    stopReplay();
    try {
      const data = await api("GET", url);
      replay.frames = (data && data.frames) || [];
      replay.fps = (data && data.fps) || 10;
    } catch (err) {
      replay.frames = [];
      status("replay: " + err.message, "error");
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
    $("replay-info").textContent = n ? `frame ${i + 1} / ${n} · ${replay.fps.toFixed(0)} fps` : "no frames";
  }

  function playReplay() {
    stopReplay();
    if (!replay.frames.length) return;
    $("replay-play").textContent = "Pause";
    replay.timer = setInterval(() => showFrame((replay.i + 1) % replay.frames.length), 1000 / replay.fps);
  }

  function stopReplay() {
    if (replay.timer) clearInterval(replay.timer);
    replay.timer = null;
    $("replay-play").textContent = "Play";
  }

  function decide(decision) {
    const body = { kind: "decision", decision, points: null };
    if (decision === "points") body.points = Number($("review-points").value || 0);
    return call(body, "review " + decision);
  }

  function wire() {
    $("start-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      act("start match", "POST", "/api/matches", startBody());
    });
    $("undo").addEventListener("click", () => call({ kind: "undo" }, "undo"));
    $("close-match").addEventListener("click", () => {
      if (confirm("Take this match off the table? It stays in the history (and can be resumed).")) {
        act("close match", "POST", "/api/matches/close");
      }
    });
    $("correction-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      call({ kind: "correction", player: $("c-player").value, points: Number($("c-points").value) }, "correction");
    });
    $("review-accept").addEventListener("click", () => decide("accept"));
    $("review-reject").addEventListener("click", () => decide("reject"));
    $("review-award").addEventListener("click", () => decide("points"));
    $("replay-play").addEventListener("click", () => (replay.timer ? stopReplay() : playReplay()));
    $("replay-seek").addEventListener("input", (ev) => { stopReplay(); showFrame(Number(ev.target.value)); });
    $("token-button").addEventListener("click", () => Carom.tokenDialog());
    document.addEventListener("carom-token", () => status("token saved", "ok"));
  }

  wire();
  CaromMatchForm.init(status);
  render({ version: -1, camera: "none", paused: null, match: null, last_shot: null, pending_review: null });
  Carom.live(render, Carom.connBadge($("conn")));
  Carom.requireToken();
  window.caromConsole = { state: () => current };
})();
