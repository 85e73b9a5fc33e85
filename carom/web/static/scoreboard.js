/* carom-referee: the scoreboard page's script (moved out of the page: the CSP runs no inline script). */
(function () {
  "use strict";
  const { el, fmt, t } = Carom;
  const $ = (id) => document.getElementById(id);
  let balls = {}, ballsFor = null; // the cue ball of each player of match ballsFor

  function playerPanel(node, p, match) {
    const shooter = match.shooter === p.name && match.phase === "playing";
    node.className = "sb-player" + (shooter ? " shooter" : "") + (match.winner === p.name ? " winner" : "");
    node.dataset.player = p.name;
    const target = p.target ? t("sb.of_target", { target: fmt.int(p.target) }) : "";
    const sets = match.sets > 1 || match.set_index > 0 ? " · " + t("sb.sets_won", { n: fmt.int(p.sets_won) }) : "";
    node.replaceChildren(
      el("div", { class: "sb-name" }, Carom.ballDot(balls[p.name], "sb-ball"), el("span", { text: p.name })),
      // "board" is what a scoreboard shows (7-pin carom counts down); points otherwise.
      el("div", { class: "sb-points", "data-role": "points", text: fmt.int(p.board ?? p.points) }),
      el("div", { class: "sb-target", text: target + sets }),
      el("div", { class: "sb-stats" },
        stat(t("stat.innings"), fmt.int(p.innings), "innings"), stat(t("stat.average"), fmt.avg(p.average), "average"),
        stat(t("stat.high_run"), fmt.int(p.high_run), "high_run"), stat(t("stat.run"), fmt.int(p.run), "run")));
  }
  function stat(label, value, role) {
    return el("div", { class: "sb-stat", "data-stat": role }, el("b", { text: value }), el("span", { text: label }));
  }

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
    if (match && ballsFor !== match.id) loadBalls(match.id);
    if (!match) {
      $("sb-discipline").textContent = t("sb.no_match");
      $("sb-inning").textContent = "";
      slots.forEach((s) => s.replaceChildren(el("div", { class: "sb-name muted", text: "–" })));
    } else {
      $("sb-discipline").textContent = fmt.title(match.discipline);
      const eq = match.equalizing ? " · " + t("sb.equalizing") : "";
      const set = match.set_index > 0 ? " · " + t("sb.set", { n: fmt.int(match.set_index + 1) }) : "";
      $("sb-inning").textContent = (match.inning_limit
        ? t("sb.inning_of", { n: fmt.int(match.inning), limit: fmt.int(match.inning_limit) })
        : t("sb.inning", { n: fmt.int(match.inning) })) + set + eq;
      match.players.forEach((p, i) => slots[i] && playerPanel(slots[i], p, match));
    }
    clock(match && match.shot_clock);
    if (state.pending_review) renderReview(state.pending_review);
    else renderVerdict(state.last_shot, !!match);
    renderBanner(state);
  }

  const clock = Carom.shotClock((c, remaining) => {
    const node = $("sb-clock");
    const up = Carom.timeUp(c, remaining), foul = up && c.expiry === "foul";
    node.textContent = !c ? "–" : up ? (foul ? t("clock.foul_short") : t("clock.time_short")) : fmt.clock(remaining);
    node.title = foul ? t("clock.up_foul") : up ? t("clock.up") : t("clock.title");
    node.className = "sb-clock" + (!c || !c.running ? " stopped" : "") +
      (c && (c.warning || up) ? " warning" : "") + (up ? " expired" : "");
  });

  // No match: how one starts (it said "no match" above "Waiting for the first shot").
  function renderVerdict(shot, match) {
    if (!shot) {
      $("sb-verdict").textContent = t(match ? "sb.waiting" : "sb.no_match_start");
      $("sb-verdict").className = "sb-verdict";
      $("sb-reason").textContent = "";
      return;
    }
    const label = shot.verdict === "point"
      ? t(shot.points === 1 ? "verdict.point_one" : "verdict.points", { n: fmt.int(shot.points) })
      : t("verdict." + shot.verdict);
    $("sb-verdict").textContent = t("sb.shot_line", { n: fmt.shotNo(shot.n), shooter: shot.shooter, verdict: label });
    $("sb-verdict").className = "sb-verdict verdict-" + shot.verdict;
    $("sb-reason").textContent = fmt.reason(shot);
  }

  function renderReview(review) {
    $("sb-verdict").textContent = t("sb.review_line", { n: fmt.shotNo(review.shot_n) }) + (review.shooter ? " · " + review.shooter : "");
    $("sb-verdict").className = "sb-verdict verdict-review";
    $("sb-reason").textContent = fmt.review(review.reason_parts, review.reason, review.held_paused);
  }

  function renderBanner(state) {
    const banner = $("sb-banner");
    let text = "", bad = false;
    if (state.match && state.match.winner) text = t("banner.wins", { name: state.match.winner });
    else if (state.match && state.match.draw) {
      const tied = state.match.tied || [];
      text = tied.length && tied.length < state.match.players.length ? t("banner.draw_of", { names: tied.join(", ") }) : t("banner.draw");
    }
    else if (state.pending_review) text = t("banner.review");
    else if (state.paused) { text = t("banner.paused", { why: fmt.paused(state) }); bad = true; }
    else if (state.camera === "lost") { text = t("banner.camera_lost"); bad = true; }
    banner.textContent = text;
    banner.className = "sb-banner" + (text ? "" : " hidden") + (bad ? " bad" : "");
  }

  let last = null;
  async function loadBalls(id) {
    ballsFor = id;
    balls = await Carom.cueBalls();
    if (last) render(last);
  }

  Carom.ready.then(() => {
    const show = Carom.connBadge($("conn"));
    let online = false;
    const badge = (ok) => { online = ok; show(ok); };
    Carom.live((state) => { last = state; render(state); }, badge);
    Carom.followLanguage(() => { badge(online); if (last) render(last); });
  });
})();
