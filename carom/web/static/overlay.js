/* carom-referee: the overlay page's script (moved out of the page: the CSP runs no inline script). */
(function () {
  "use strict";
  const { el, fmt, t } = Carom;
  const $ = (id) => document.getElementById(id);
  let balls = {}, ballsFor = null, last = null; // each player's cue ball in match ballsFor

  const clock = Carom.shotClock((c, remaining) => {
    const node = $("ov-clock");
    const up = Carom.timeUp(c, remaining);
    const shown = up ? (c.expiry === "foul" ? t("clock.up_foul_short") : t("clock.up")) : t("ov.clock", { s: fmt.clock(remaining) });
    node.textContent = c && c.running ? shown : "";
    node.className = c && (c.warning || up) ? "warning" : "";
  });

  function row(node, p, match) {
    const shooter = match.shooter === p.name && match.phase === "playing";
    node.className = "ov-row" + (shooter ? " shooter" : "");
    node.dataset.player = p.name;
    node.replaceChildren(
      el("span", { class: "ov-dot" }),
      el("span", { class: "ov-name" }, Carom.ballDot(balls[p.name], "ov-ball"), el("span", { text: p.name })),
      el("span", { class: "ov-run", text: shooter && p.run ? t("ov.run", { n: fmt.int(p.run) }) : t("ov.avg", { avg: fmt.avg(p.average) }) }),
      el("span", { class: "ov-points", "data-role": "points", text: fmt.int(p.board ?? p.points) }));
  }

  // One row per player (rules.md §1: two to eight), above the foot line.
  function lines(n) {
    const box = $("ov"), foot = box.querySelector(".ov-foot");
    let rows = box.querySelectorAll(".ov-row");
    for (let i = rows.length; i < n; i++) box.insertBefore(el("div", { class: "ov-row", "data-slot": String(i) }), foot);
    for (let i = rows.length - 1; i >= n; i--) rows[i].remove();
    return box.querySelectorAll(".ov-row");
  }

  function render(state) {
    const match = state.match;
    $("ov").classList.toggle("hidden", !match);
    if (!match) return;
    if (ballsFor !== match.id) loadBalls(match.id);
    const rows = lines(match.players.length);
    match.players.forEach((p, i) => rows[i] && row(rows[i], p, match));
    const target = match.players[0] && match.players[0].target ? " · " + t("ov.to", { target: fmt.int(match.players[0].target) }) : "";
    const tied = match.tied && match.tied.length < match.players.length ? match.tied.join(", ") : "";
    $("ov-info").textContent = match.winner ? t("banner.wins", { name: match.winner })
      : match.draw ? (tied ? t("banner.draw_of", { names: tied }) : t("banner.draw"))
      : t("sb.inning", { n: fmt.int(match.inning) }) + target;
    clock(match.shot_clock);
    const shot = state.last_shot;
    const v = $("ov-verdict");
    v.textContent = state.pending_review ? t("verdict.review") : shot ? `${shot.shooter}: ${shot.verdict === "point" ? "+" + fmt.int(shot.points) : t("verdict." + shot.verdict)}` : "";
    v.dataset.version = String(state.version);
  }

  async function loadBalls(id) {
    ballsFor = id;
    balls = await Carom.cueBalls();
    if (last) render(last);
  }

  Carom.ready.then(() => {
    Carom.live((state) => { last = state; render(state); });
    Carom.followLanguage(() => last && render(last));
  });
})();
