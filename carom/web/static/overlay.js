/* carom-referee: the overlay page's script (moved out of the page: the CSP runs no inline script). */
(function () {
  "use strict";
  const { el, fmt } = Carom;
  const $ = (id) => document.getElementById(id);

  const clock = Carom.shotClock((c, remaining) => {
    const node = $("ov-clock");
    const up = Carom.timeUp(c, remaining);
    const shown = up ? (c.expiry === "foul" ? "time up: foul" : "time up") : `shot ${fmt.clock(remaining)} s`;
    node.textContent = c && c.running ? shown : "";
    node.className = c && (c.warning || up) ? "warning" : "";
  });

  function row(node, p, match) {
    const shooter = match.shooter === p.name && match.phase === "playing";
    node.className = "ov-row" + (shooter ? " shooter" : "");
    node.dataset.player = p.name;
    node.replaceChildren(
      el("span", { class: "ov-dot" }),
      el("span", { class: "ov-name", text: p.name }),
      el("span", { class: "ov-run", text: shooter && p.run ? `run ${p.run}` : `avg ${fmt.avg(p.average)}` }),
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
    const rows = lines(match.players.length);
    match.players.forEach((p, i) => rows[i] && row(rows[i], p, match));
    const target = match.players[0] && match.players[0].target ? ` · to ${match.players[0].target}` : "";
    const tied = match.tied && match.tied.length < match.players.length ? `: ${match.tied.join(", ")}` : "";
    $("ov-info").textContent = match.winner ? `${match.winner} wins` : match.draw ? `draw${tied}` : `inning ${match.inning}${target}`;
    clock(match.shot_clock);
    const shot = state.last_shot;
    const v = $("ov-verdict");
    v.textContent = state.pending_review ? "review" : shot ? `${shot.shooter}: ${shot.verdict === "point" ? "+" + shot.points : shot.verdict}` : "";
    v.dataset.version = String(state.version);
  }

  Carom.live(render);
})();
