/* Calibration wizard: the camera frame, the fit drawn over it, draggable corners/diamonds.
 *
 * Coordinates are image pixels (the API's frame); the canvas has the image's size and is
 * scaled by CSS, so a pointer maps to image pixels through the canvas' on-screen box.
 *
 * The corners are always the person's (the fit starts from them). The 24 diamonds are
 * shown where the current fit puts them; dragging one *marks* it: a mark is where the
 * person sees that diamond, and each mark gets a residual (px from the fitted diamond to
 * the mark) after the refit. Unmarked diamonds are posted as null.
 */
(function () {
  "use strict";
  const { el, api, t, fmt } = Carom;
  const $ = (id) => document.getElementById(id);
  const CORNER_NAMES = ["TL", "TR", "BR", "BL"];
  const HIT_CSS_PX = 22; // finger-sized grab radius on a tablet
  const wiz = { fit: null, corners: [], marks: [], drag: null, fits: 0 };

  function status(message, kind) { Carom.setStatus($("status"), message, kind); }
  const canvas = $("overlay");
  const ctx = canvas.getContext("2d");

  // Diamond index -> its rail and place (the API's order: 9 left, 9 right, 3 head, 3 foot).
  function diamondName(i) {
    if (i < 9) return t("wiz.rail_left", { n: i + 1 });
    if (i < 18) return t("wiz.rail_right", { n: i - 8 });
    if (i < 21) return t("wiz.rail_head", { n: i - 17 });
    return t("wiz.rail_foot", { n: i - 20 });
  }

  function cssScale() {
    const box = canvas.getBoundingClientRect();
    return box.width ? canvas.width / box.width : 1;
  }

  function toImage(ev) {
    const box = canvas.getBoundingClientRect();
    return [(ev.clientX - box.left) * canvas.width / box.width, (ev.clientY - box.top) * canvas.height / box.height];
  }

  function inside(p) { return !!p && p[0] >= 0 && p[1] >= 0 && p[0] <= canvas.width && p[1] <= canvas.height; }
  function fitted(i) { return wiz.fit && wiz.fit.diamonds_px ? wiz.fit.diamonds_px[i] : null; }
  function diamondAt(i) { return wiz.marks[i] || fitted(i); }

  /* Residual of each marked diamond (the API lists them in index order of the marks). */
  function residualsByIndex() {
    const out = {};
    const list = (wiz.fit && wiz.fit.residuals_px) || [];
    let k = 0;
    wiz.marks.forEach((m, i) => { if (m) { if (k < list.length) out[i] = list[k]; k += 1; } });
    return out;
  }

  function residualColour(r) { return r === undefined ? "#f0b429" : r < 1.5 ? "#3fb950" : r < 4 ? "#f0b429" : "#f85149"; }

  function draw() {
    const s = cssScale();
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    if (!wiz.fit) return;
    ctx.lineWidth = 2 * s;
    polygon(wiz.fit.corners_px, "rgba(56, 189, 248, 0.95)"); // the fit, cyan
    polygon(wiz.corners, "rgba(240, 180, 41, 0.6)", [6 * s, 6 * s]); // the person's corners
    const res = residualsByIndex();
    (wiz.fit.diamonds_px || []).forEach((p, i) => {
      if (!inside(p)) return;
      const mark = wiz.marks[i];
      cross(p[0], p[1], 5 * s, "rgba(56, 189, 248, 0.95)");
      if (mark) {
        line(p, mark, residualColour(res[i]));
        handle(mark[0], mark[1], 7 * s, residualColour(res[i]), true);
      } else {
        handle(p[0], p[1], 7 * s, "rgba(255, 255, 255, 0.75)", false);
      }
    });
    wiz.corners.forEach(([u, v], i) => {
      handle(u, v, 11 * s, "#f0b429", false);
      ctx.fillStyle = "#fff";
      ctx.font = `${14 * s}px system-ui, sans-serif`;
      ctx.fillText(CORNER_NAMES[i], u + 14 * s, v - 10 * s);
    });
  }

  function polygon(points, colour, dash) {
    if (!points || points.length < 3) return;
    ctx.save();
    ctx.strokeStyle = colour;
    if (dash) ctx.setLineDash(dash);
    ctx.beginPath();
    points.forEach(([u, v], i) => (i ? ctx.lineTo(u, v) : ctx.moveTo(u, v)));
    ctx.closePath();
    ctx.stroke();
    ctx.restore();
  }

  function handle(u, v, r, colour, filled) {
    ctx.beginPath();
    ctx.arc(u, v, r, 0, 2 * Math.PI);
    ctx.save();
    ctx.fillStyle = filled ? colour : "#000";
    ctx.globalAlpha = 0.35;
    ctx.fill();
    ctx.restore();
    ctx.strokeStyle = colour;
    ctx.stroke();
  }

  function line(a, b, colour) {
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.moveTo(a[0], a[1]);
    ctx.lineTo(b[0], b[1]);
    ctx.stroke();
    ctx.restore();
  }

  function cross(u, v, r, colour) {
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.moveTo(u - r, v); ctx.lineTo(u + r, v); ctx.moveTo(u, v - r); ctx.lineTo(u, v + r);
    ctx.stroke();
    ctx.restore();
  }

  // The colour through the CSSOM: the CSP refuses style attributes.
  function residualCell(r) {
    const cell = el("td", { class: "num", text: fmt.num(r, 2) });
    cell.style.color = residualColour(r);
    return cell;
  }

  function showFit(fit) {
    wiz.fit = fit;
    $("rms").textContent = fmt.num(fit.rms_px, 2);
    const res = residualsByIndex();
    const rows = Object.entries(res).map(([i, r]) => el("tr", { "data-diamond": i },
      el("td", { text: diamondName(Number(i)) }), residualCell(r)));
    $("residuals").replaceChildren(...(rows.length ? rows
      : [el("tr", {}, el("td", { colspan: 2, class: "muted", text: t("wiz.mark_hint") }))]));
    const method = ("wiz.method_" + fit.method) in Carom.i18n.messages ? t("wiz.method_" + fit.method) : fit.method;
    $("method").textContent = fit.method ? " · " + t("wiz.method", { method }) : "";
    draw();
  }

  // The balls' doubt about the table's size (the server's table_size), in the page's
  // language; "" when the size fits or could not be measured.
  function sizeDoubt(fit) {
    const d = fit.table_size;
    if (!d) return "";
    const size = (mm) => fmt.int(mm[0]) + " × " + fmt.int(mm[1]);
    const said = t("wiz.table_size", { ratio: fmt.num(d.ratio, 2), given: size(d.given_mm),
      implied: size(d.implied_mm) });
    if (!d.named.length) return said;
    const sizes = d.named.map((n) => n.name + ": " + size([n.length_mm, n.width_mm])).join(", ");
    return said + " · " + t("wiz.table_size_named", { sizes });
  }

  async function load() {
    status(t("wiz.loading"));
    try {
      const fit = await api("GET", "/api/calibration");
      canvas.width = fit.width;
      canvas.height = fit.height;
      wiz.corners = fit.corners_px.map((p) => p.slice());
      wiz.marks = (fit.diamonds_px || []).map(() => null);
      wiz.fits = 0;
      $("stage").classList.remove("hidden");
      $("frame").src = (fit.image_url || "/api/calibration/frame.jpg") + "?t=" + Date.now();
      showFit(fit);
      $("save").disabled = true; // the server saves the last refit: there is none yet
      const doubt = sizeDoubt(fit);
      const note = fit.note_parts ? t("wiz." + fit.note_parts.key, fit.note_parts.fields) : fit.note;
      status(note || doubt || t("wiz.drag_hint"), note || doubt ? "error" : "");
    } catch (err) {
      status(t("wiz.calibration_error", { why: Carom.fmt.refusal(err) }), "error");
      $("stage").classList.add("hidden"); // no frame to show: no empty picture either
      $("save").disabled = true;
    }
  }

  function pick(point) {
    const r = HIT_CSS_PX * cssScale();
    let best = null, bestD = r;
    const test = (p, kind, i) => {
      if (!inside(p)) return;
      const d = Math.hypot(p[0] - point[0], p[1] - point[1]);
      if (d <= bestD) { best = { kind, i }; bestD = d; }
    };
    wiz.marks.forEach((m, i) => test(diamondAt(i), "diamonds", i));
    wiz.corners.forEach((p, i) => test(p, "corners", i)); // corners win a tie: they matter most
    return best;
  }

  async function refit() {
    const marked = wiz.marks.some((m) => m);
    try {
      const fit = await api("POST", "/api/calibration/fit", {
        corners_px: wiz.corners, diamonds_px: marked ? wiz.marks : null });
      wiz.fits += 1;
      showFit(fit);
      const confidence = fmt.num(fit.confidence, 2);
      if (fit.verdict === "failed") { // carom calibrate writes no file for it; neither does save
        $("save").disabled = true;
        status(t("wiz.fit_failed", { confidence }), "error");
        return;
      }
      $("save").disabled = false;
      const rms = typeof fit.rms_px === "number" ? t("wiz.rms", { px: fmt.num(fit.rms_px, 2) }) : t("wiz.no_marks");
      const doubtful = fit.verdict === "doubtful" ? t("wiz.fit_doubtful", { confidence }) : "";
      const size = sizeDoubt(fit);
      const doubt = [doubtful, size].filter(Boolean).join(" · ");
      const kind = size ? "error" : doubtful ? "warn" : "ok"; // doubtful: saved, to be checked
      status(t("wiz.refitted", { rms }) + (doubt ? " · " + doubt : ""), kind);
    } catch (err) {
      status(t("wiz.fit_error", { why: Carom.fmt.refusal(err) }), "error");
    }
  }

  canvas.addEventListener("pointerdown", (ev) => {
    const hit = pick(toImage(ev));
    if (!hit) return;
    wiz.drag = hit;
    canvas.setPointerCapture(ev.pointerId);
    ev.preventDefault();
  });
  canvas.addEventListener("pointermove", (ev) => {
    if (!wiz.drag) return;
    const [u, v] = toImage(ev);
    const p = [Math.max(0, Math.min(canvas.width, u)), Math.max(0, Math.min(canvas.height, v))];
    if (wiz.drag.kind === "corners") wiz.corners[wiz.drag.i] = p;
    else wiz.marks[wiz.drag.i] = p;
    draw();
  });
  const drop = (ev) => {
    if (!wiz.drag) return;
    wiz.drag = null;
    if (canvas.hasPointerCapture(ev.pointerId)) canvas.releasePointerCapture(ev.pointerId);
    refit();
  };
  canvas.addEventListener("pointerup", drop);
  canvas.addEventListener("pointercancel", drop);
  window.addEventListener("resize", draw);

  $("save").addEventListener("click", async () => {
    try {
      const saved = await api("POST", "/api/calibration/save");
      status(saved && saved.path ? t("wiz.saved_to", { path: saved.path }) : t("wiz.saved"), "ok");
    } catch (err) {
      status(t("wiz.save_error", { why: Carom.fmt.refusal(err) }), "error");
    }
  });
  $("reset").addEventListener("click", load);
  $("token-button").addEventListener("click", () => Carom.tokenDialog());

  /* For tests and scripts: where a handle is on screen (CSS px, page coordinates). */
  window.caromWizard = {
    fits: () => wiz.fits,
    rms: () => (wiz.fit && typeof wiz.fit.rms_px === "number" ? wiz.fit.rms_px : null), // unrounded
    visibleDiamonds: () => wiz.marks.map((m, i) => i).filter((i) => {
      const p = diamondAt(i);
      return inside(p) && p[0] > 30 && p[1] > 30 && p[0] < canvas.width - 30 && p[1] < canvas.height - 30;
    }),
    handleClientXY(kind, i) {
      const box = canvas.getBoundingClientRect();
      const [u, v] = kind === "corners" ? wiz.corners[i] : diamondAt(i);
      return [box.left + u * box.width / canvas.width, box.top + v * box.height / canvas.height];
    },
    handles: () => ({ corners: wiz.corners.map((p) => p.slice()), marks: wiz.marks.map((p) => p && p.slice()) }),
  };
  // No token asked for here: the first refit or save asks for it (Carom.api).
  Carom.ready.then(load);
})();
