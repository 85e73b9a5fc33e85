"""The report's style sheet: one inline ``<style>``, phone first, print friendly.

Print: no dark background (the diagrams' own backdrop and light labels turn to paper and
ink), a card never breaks across pages, the link column is dropped.
"""

from __future__ import annotations

__all__ = ["PLAYER_COLOURS", "REPORT_CSS"]

#: One colour per seat (up to 8 players): the plots' bars and the legend's swatches.
PLAYER_COLOURS = (
    "#1f6feb", "#d9480f", "#2b8a3e", "#ae3ec9", "#0c8599", "#e67700", "#5f3dc4", "#c2255c",
)  # fmt: skip

_SEATS = "".join(f".p{i}{{fill:{c};background:{c}}}" for i, c in enumerate(PLAYER_COLOURS))

REPORT_CSS = (
    """
*{box-sizing:border-box}
body{font:16px/1.45 system-ui,sans-serif;margin:0;padding:10px;background:#f4f5f7;color:#1b1e23}
:lang(ko) body{word-break:keep-all;overflow-wrap:anywhere}
main{max-width:980px;margin:auto}
h1{font-size:1.4em;margin:.2em 0;overflow-wrap:anywhere}
h2{font-size:1.2em;margin:1.2em 0 .4em}
h3{font-size:1em;margin:.6em 0 .3em}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 12px}
dl.meta dt{font-weight:bold}dl.meta dd{margin:0;overflow-wrap:anywhere}
.panel{background:#fff;border:1px solid #ccd;border-radius:8px;padding:10px;margin:10px 0}
.panel>h2{margin-top:0}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{border-bottom:1px solid #dde;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#eef1f5}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.sheet tr.point td{background:#eaf7ee}table.sheet tr.foul td{background:#fdeceb}
table.sheet tr.review td{background:#fff4dc}
table.sheet td.why{min-width:14em}
table.players td:first-child{white-space:nowrap}
.plots{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:12px}
figure{margin:0}figcaption{font-weight:bold;margin:0 0 4px}
svg.plot{width:100%;height:auto;display:block}
svg.plot text{font:13px system-ui,sans-serif;fill:#1b1e23}
svg.plot line{stroke:#99a}
.legend{list-style:none;padding:0;margin:4px 0;display:flex;flex-wrap:wrap;gap:4px 14px}
.swatch{display:inline-block;width:.9em;height:.9em;border-radius:2px;margin-right:4px;
vertical-align:-1px}
section.shot{background:#fff;border:1px solid #ccd;border-radius:8px;padding:10px;margin:14px 0}
section.shot h2{font-size:1.15em;margin:0 0 6px;overflow-wrap:anywhere}
.when{color:#555;font-size:.9em;margin:0 0 6px}
.verdict{padding:6px 8px;border-radius:6px;margin:0 0 8px;background:#e8eef5;
overflow-wrap:anywhere}
.verdict.point{background:#dff3e4}.verdict.foul{background:#fde2e1}
.verdict.review{background:#fff0c9;border:2px solid #e69500}
.diagram{margin:6px 0}
tr.doubt td{background:#fff4dc}
.note{color:#555;font-size:.9em}
@media (max-width:600px){body{padding:6px;font-size:15px}
.panel,section.shot{padding:8px;border-radius:6px}th,td{padding:3px 4px}}
@media print{
body{background:#fff;color:#000;padding:0;font-size:11pt}
.panel,section.shot{border:1px solid #999;background:#fff}
section.shot,figure,.panel{break-inside:avoid;page-break-inside:avoid}
th{background:#fff;border-bottom:2px solid #000}
.verdict,.verdict.point,.verdict.foul,.verdict.review{background:#fff;border:1px solid #999}
.verdict.review{border:2px solid #000}
table.sheet td,table.sheet tr.point td,table.sheet tr.foul td,table.sheet tr.review td{
background:#fff}
a{color:inherit;text-decoration:none}
.diagram svg .background{fill:#fff}
.diagram svg text.caption,.diagram svg text:not([class]){fill:#000}
.diagram svg .key[stroke="#f2f2f2"]{stroke:#000}
}
"""
    + _SEATS
    + "\n"
)
