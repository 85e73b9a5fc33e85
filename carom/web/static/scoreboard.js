/* carom-referee: the scoreboard page's script (moved out of the page: the CSP runs no inline script). */
(function () {
  "use strict";
  const { el, fmt } = Carom;
  const $ = (id) => document.getElementById(id);

  function playerPanel(node, p, match) {
    const shooter = match.shooter === p.name && match.phase === "playing";
    node.className = "sb-player" + (shooter ? " shooter" : "") + (match.winner === p.name ? " winner" : "");
    node.dataset.player = p.name;
    const target = p.target ? `of ${p.target}` : "";
    const sets = match.sets > 1 || match.set_index > 0 ? ` · sets won ${p.sets_won}` : "";
    node.replaceChildren(
      el("div", { class: "sb-name", text: p.name }),
      // "board" is what a scoreboard shows (7-pin carom counts down); points otherwise.
      el("div", { class: "sb-points", "data-role": "points", text: fmt.int(p.board ?? p.points) }),
      el("div", { class: "sb-target", text: target + sets }),
      el("div", { class: "sb-stats" },
        stat("innings", fmt.int(p.innings)), stat("average", fmt.avg(p.average)),
        stat("high run", fmt.int(p.high_run)), stat("run", fmt.int(p.run))));
  }
  function stat(label, value) { return el("div", { class: "sb-stat" }, el("b", { text: value }), el("span", { text: label })); }

  // One panel per player (rules.md §1: two to eight); more than four take two rows.
  function panels(n) {
    const box = $("sb-players");
    while (box.children.length < n) box.append(el("section", { class: "sb-player" }));
    while (box.children.length > n) box.lastElementChild.remove();
    [...box.children].forEach((node, i) => { node.dataset.slot = String(i); });
    box.classList.toggle("sb-many", n > 2);
    box.style.gridTemplateColumns = `repeat(${n <= 4 ? n : Math.ceil(n / 2)}, 1fr)`;
    return [...box.children];
  }

  function render(state) {
    const match = state.match;
    const slots = panels(match ? match.players.length : 2);
    if (!match) {
      $("sb-discipline").textContent = "no match";
      $("sb-inning").textContent = "";
      slots.forEach((s) => s.replaceChildren(el("div", { class: "sb-name muted", text: "–" })));
    } else {
      $("sb-discipline").textContent = fmt.title(match.discipline);
      const eq = match.equalizing ? " · equalizing inning" : "";
      const set = match.set_index > 0 ? ` · set ${match.set_index + 1}` : "";
      const limit = match.inning_limit ? ` of ${match.inning_limit}` : "";
      $("sb-inning").textContent = `inning ${match.inning}${limit}${set}${eq}`;
      match.players.forEach((p, i) => slots[i] && playerPanel(slots[i], p, match));
    }
    clock(match && match.shot_clock);
    if (state.pending_review) renderReview(state.pending_review);
    else renderVerdict(state.last_shot);
    renderBanner(state);
  }

  const clock = Carom.shotClock((c, remaining) => {
    const node = $("sb-clock");
    const up = Carom.timeUp(c, remaining), foul = up && c.expiry === "foul";
    node.textContent = !c ? "–" : up ? (foul ? "FOUL" : "TIME") : fmt.clock(remaining);
    node.title = foul ? "time up: the stroke is a foul" : up ? "time up" : "shot clock";
    node.className = "sb-clock" + (!c || !c.running ? " stopped" : "") +
      (c && (c.warning || up) ? " warning" : "") + (up ? " expired" : "");
  });

  function renderVerdict(shot) {
    if (!shot) {
      $("sb-verdict").textContent = "Waiting for the first shot";
      $("sb-verdict").className = "sb-verdict";
      $("sb-reason").textContent = "";
      return;
    }
    const label = { point: `+${shot.points} point${shot.points === 1 ? "" : "s"}`, miss: "miss",
      foul: "foul", review: "review" }[shot.verdict] || shot.verdict;
    $("sb-verdict").textContent = `Shot ${fmt.shotNo(shot.n)} · ${shot.shooter}: ${label}`;
    $("sb-verdict").className = "sb-verdict verdict-" + shot.verdict;
    $("sb-reason").textContent = shot.reason || "";
  }

  function renderReview(review) {
    $("sb-verdict").textContent = `Review · shot ${fmt.shotNo(review.shot_n)}${review.shooter ? " · " + review.shooter : ""}`;
    $("sb-verdict").className = "sb-verdict verdict-review";
    $("sb-reason").textContent = review.reason || "";
  }

  function renderBanner(state) {
    const banner = $("sb-banner");
    let text = "", bad = false;
    if (state.match && state.match.winner) text = `${state.match.winner} wins`;
    else if (state.match && state.match.draw) {
      const tied = state.match.tied || [];
      text = tied.length && tied.length < state.match.players.length ? `Draw: ${tied.join(", ")}` : "Draw";
    }
    else if (state.pending_review) text = "Referee review";
    else if (state.paused) { text = `Paused: ${state.paused}`; bad = true; }
    else if (state.camera === "lost") { text = "Camera lost"; bad = true; }
    banner.textContent = text;
    banner.className = "sb-banner" + (text ? "" : " hidden") + (bad ? " bad" : "");
  }

  Carom.live(render, Carom.connBadge($("conn")));
})();
