/* carom-referee: the index page's script (moved out of the page: the CSP runs no inline script). */
Carom.ready.then(() => {
  document.getElementById("health").textContent = Carom.t("index.checking");
  return fetch("/api/health");
}).then((r) => r.json()).then((h) => {
  document.getElementById("health").textContent = Carom.t("index.health", {
    status: Carom.t("health." + h.status), camera: Carom.t("camera." + h.camera) });
}).catch(() => { document.getElementById("health").textContent = Carom.t("error.no_server"); });
