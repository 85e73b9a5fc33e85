/* carom-referee: the index page's script (moved out of the page: the CSP runs no inline script). */
fetch("/api/health").then((r) => r.json()).then((h) => {
  document.getElementById("health").textContent = `server ${h.status} · camera ${h.camera}`;
}).catch(() => { document.getElementById("health").textContent = "the server does not answer"; });
