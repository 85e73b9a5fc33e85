/* History: finished matches, their scoresheets, a diagram per shot, player statistics. */
(function () {
  "use strict";
  const { el, api, fmt, t } = Carom;
  const $ = (id) => document.getElementById(id);

  function status(message, kind) { Carom.setStatus($("status"), message, kind); }

  function scoreText(m) {
    return (m.players || []).map((p) => (m.score && p in m.score ? fmt.int(m.score[p]) : "–")).join(" : ");
  }

  async function loadMatches() {
    try {
      const matches = await api("GET", "/api/matches");
      const rows = matches.slice().sort((a, b) => b.id - a.id).map((m) => el("tr", {
        "data-match": m.id, onclick: () => { location.hash = "match=" + m.id; } },
        el("td", { text: m.id }), el("td", { text: fmt.date(m.created_at) }),
        el("td", { text: fmt.title(m.discipline) }), el("td", { text: (m.players || []).join(" – ") }),
        el("td", { class: "num", text: scoreText(m) }),
        el("td", { text: result(m) })));
      $("matches").replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 6, class: "muted", text: t("hist.no_matches") }))]));
      highlight();
    } catch (err) {
      status(t("hist.matches_error", { why: err.message }), "error");
    }
  }

  function result(m) {
    return m.finished ? (m.winner ? t("hist.won", { name: m.winner }) : t("hist.drawn")) : t("hist.in_play");
  }

  function highlight() {
    const id = selectedId();
    document.querySelectorAll("#matches tr").forEach((tr) => tr.classList.toggle("sel", tr.dataset.match === String(id)));
  }

  function selectedId() {
    const m = /match=(\d+)/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }

  function statsTable(stats) {
    const head = el("tr", {}, el("th", { text: t("hist.player") }), ...["hist.points", "hist.innings", "stat.average", "hist.high_run"].map((h) => el("th", { class: "num", text: t(h) })));
    const rows = Object.entries(stats || {}).map(([name, s]) => el("tr", { "data-player": name },
      el("td", { text: name }), el("td", { class: "num", text: fmt.int(s.points) }),
      el("td", { class: "num", text: fmt.int(s.innings) }), el("td", { class: "num", text: fmt.avg(s.average) }),
      el("td", { class: "num", text: fmt.int(s.high_run) })));
    $("match-stats").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  }

  function cell(value) {
    if (value === null || value === undefined) return "";
    if (typeof value === "number") return Number.isInteger(value) ? fmt.int(value) : fmt.num(value, 3);
    if (Array.isArray(value)) return value.map((v) => fmt.title(v)).join(", ");
    if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${v}`).join(" · ");
    return String(value);
  }

  // How a person settled a shot held for review, and where ("accepted (web console)").
  function decided(d) {
    const what = d.decision === "points"
      ? t(d.points === 1 ? "hist.decided_point_one" : "hist.decided_points", { n: fmt.int(d.points) })
      : t("hist.decided_" + d.decision);
    const by = { web: t("hist.by_web"), keyboard: t("hist.by_keyboard"), "shot clock": t("hist.by_shot_clock") }[d.by] || d.by;
    return by ? t("hist.decided_by", { what, by }) : what;
  }

  function scoresheet(shots, players) {
    const columns = [
      ["shot", (s) => fmt.shotNo(s.n), "num"], ["inning", (s) => s.inning, "num"],
      ["shooter", (s) => s.shooter], ["verdict", (s) => s.verdict && t("verdict." + s.verdict)], ["points", (s) => s.points, "num"],
      ["run", (s) => s.run, "num"],
      ["score_after", (s) => (s.score_after ? players.map((p) => fmt.int(s.score_after[p])).join(" : ") : ""), "num"],
      ["fouls", (s) => s.fouls], ["reason", (s) => fmt.reason(s)],
      ["decided", (s) => s.decided && decided(s.decided)],
    ].filter(([, get]) => shots.some((s) => { const v = get(s); return v !== undefined && v !== null && !(Array.isArray(v) && !v.length); }));
    const head = el("tr", {}, ...columns.map(([name, , cls]) => el("th", { class: cls || "", text: t("col." + name) })));
    const rows = shots.map((s) => el("tr", { class: s.verdict ? "verdict-" + s.verdict : "", "data-shot": s.n },
      ...columns.map(([, get, cls]) => el("td", { class: cls || "", text: cell(get(s)) }))));
    $("scoresheet").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  }

  function diagrams(id, shots) {
    $("diagrams").replaceChildren(...shots.map((s, i) => {
      const n = s.n !== undefined ? s.n : i;
      const src = fmt.inLang(s.diagram_url || `/api/matches/${id}/shots/${n}/diagram.svg`);
      return el("figure", { "data-shot": n },
        el("a", { href: src, target: "_blank" }, el("img", { src, loading: "lazy", alt: t("hist.diagram_of", { n: fmt.shotNo(n) }) })),
        el("figcaption", {}, t("hist.shot", { n: fmt.shotNo(n) }), s.shooter ? ` · ${s.shooter}` : "",
          s.verdict ? el("span", { class: "verdict-" + s.verdict, text: " · " + t("verdict." + s.verdict) }) : "",
          s.reason ? el("div", { class: "muted", text: fmt.reason(s) }) : ""));
    }));
  }

  async function loadMatch() {
    const id = selectedId();
    highlight();
    $("match").classList.toggle("hidden", id === null);
    if (id === null) return;
    try {
      const m = await api("GET", fmt.inLang(`/api/matches/${id}`));
      $("match-title").textContent = t("con.match_title", { id: m.id, discipline: fmt.title(m.discipline) }) +
        ` · ${(m.players || []).join(" – ")} · ${result(m)}`;
      $("exports").replaceChildren(
        el("a", { href: `/api/matches/${id}/export.json`, download: `match-${id}.json`, id: "export-json" }, t("hist.export_json")),
        el("a", { href: `/api/matches/${id}/export.csv`, download: `match-${id}.csv`, id: "export-csv" }, t("hist.export_csv")),
        el("a", { href: `/api/matches/${id}/shots.csv`, download: `match-${id}-shots.csv`, id: "export-shots-csv" }, t("hist.export_shots_csv")),
        m.corrections_not_in_export > 0
          ? el("span", { class: "muted", id: "export-json-note", text: t("hist.export_json_corrections", { n: fmt.int(m.corrections_not_in_export) }) })
          : "");
      // The terms come in the page's language from the server (the report's words).
      $("match-setup").textContent = m.setup && m.setup.length ? t("hist.setup", { terms: m.setup.join("; ") }) : "";
      statsTable(m.stats);
      const shots = m.scoresheet || [];
      scoresheet(shots, m.players || []);
      diagrams(id, shots);
    } catch (err) {
      status(t("hist.match_error", { id, why: err.message }), "error");
    }
  }

  async function loadPlayers() {
    try {
      const stats = await api("GET", "/api/players/stats");
      // One row per player and discipline: an average over three-cushion and straight
      // rail together says nothing (the server gives each discipline's apart).
      const lines = Object.entries(stats).flatMap(([name, all]) =>
        Object.entries(all.disciplines || { "": all }).map(([kind, s]) => [name, kind, s]));
      const rows = lines.sort((a, b) => a[1].localeCompare(b[1]) || (b[2].general_average || 0) - (a[2].general_average || 0))
        .map(([name, kind, s]) => el("tr", { "data-player": name, "data-discipline": kind }, el("td", { text: name }),
          el("td", { text: kind ? fmt.title(kind) : "" }),
          el("td", { class: "num", text: fmt.int(s.matches) }), el("td", { class: "num", text: fmt.int(s.points) }),
          el("td", { class: "num", text: fmt.int(s.innings) }), el("td", { class: "num", text: fmt.avg(s.general_average) }),
          el("td", { class: "num", text: fmt.avg(s.best_average) }), el("td", { class: "num", text: fmt.int(s.high_run) })));
      document.querySelector("#players tbody").replaceChildren(...rows);
    } catch (err) {
      status(t("hist.players_error", { why: err.message }), "error");
    }
  }

  Carom.ready.then(() => {
    window.addEventListener("hashchange", loadMatch);
    loadMatches().then(() => {
      if (selectedId() === null) {
        const first = document.querySelector("#matches tr[data-match]");
        if (first) location.hash = "match=" + first.dataset.match; // hashchange loads it
      }
    });
    loadMatch();
    loadPlayers();
  });
})();
