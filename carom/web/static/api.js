// The API reference, drawn from the server's own /openapi.json: no script from
// elsewhere, so it works on a club's network without internet.
(function () {
  "use strict";
  const { el, setStatus } = window.Carom;

  function refName(schema) {
    if (!schema) return "";
    if (schema.$ref) return schema.$ref.split("/").pop();
    if (schema.type === "array") return `${refName(schema.items)}[]`;
    if (schema.anyOf) return schema.anyOf.map(refName).join(" | ");
    return schema.type || "";
  }

  function fields(spec, schema) {
    const name = schema && schema.$ref ? refName(schema) : null;
    const model = name ? spec.components.schemas[name] : schema;
    if (!model || !model.properties) return null;
    const required = new Set(model.required || []);
    const rows = Object.entries(model.properties).map(([key, prop]) =>
      el("tr", {}, el("td", {}, el("code", { text: key })), el("td", { text: refName(prop) }),
        el("td", { text: required.has(key) ? "required" : "" }),
        el("td", { class: "muted", text: prop.description || prop.title || "" })));
    return el("table", { class: "api-fields" }, el("tbody", {}, rows));
  }

  function endpoint(spec, path, method, op) {
    const params = (op.parameters || []).map((p) =>
      el("li", {}, el("code", { text: p.name }), ` (${p.in}${p.required ? ", required" : ""})`));
    const body = op.requestBody && op.requestBody.content["application/json"];
    const answers = Object.entries(op.responses || {}).map(([code, r]) =>
      el("li", {}, el("code", { text: code }), ` ${r.description || ""}`));
    return el("section", { class: "panel api-op", "data-path": path, "data-method": method },
      el("h2", {}, el("code", { class: "api-method", text: method.toUpperCase() }), " ",
        el("code", { text: path })),
      el("p", { text: op.summary || "" }),
      op.description ? el("p", { class: "muted", text: op.description }) : null,
      params.length ? el("div", {}, el("h3", { text: "parameters" }), el("ul", {}, params)) : null,
      body ? el("div", {}, el("h3", { text: `body: ${refName(body.schema)}` }),
        fields(spec, body.schema)) : null,
      el("h3", { text: "answers" }), el("ul", {}, answers));
  }

  async function main() {
    const status = document.getElementById("status");
    try {
      const resp = await fetch("/openapi.json");
      if (!resp.ok) throw new Error(`the server answered ${resp.status}`);
      const spec = await resp.json();
      document.getElementById("about").textContent =
        `${spec.info.title} ${spec.info.version}: ${spec.info.description || ""}`;
      const out = document.getElementById("endpoints");
      for (const [path, ops] of Object.entries(spec.paths).sort()) {
        for (const [method, op] of Object.entries(ops)) out.append(endpoint(spec, path, method, op));
      }
      setStatus(status, `${out.children.length} endpoints`, "ok");
    } catch (err) {
      setStatus(status, `cannot load /openapi.json: ${err.message}; is the server running?`, "error");
    }
  }
  main();
})();
