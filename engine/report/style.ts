// The report's only stylesheet, inlined (no external fetches). Print rules: A4, tables and charts
// never cut across pages, each run starts on a new page. Page margins and the numbered footer come
// from page.pdf() (pdf.ts), so the HTML also reads well in a browser.
export const REPORT_CSS = `
@page { size: A4; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { font-family: "Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans", sans-serif; font-size: 9.5pt;
  line-height: 1.4; color: #1e293b; margin: 0 auto; max-width: 190mm; padding: 0; }
@media screen { body { padding: 12mm; } }
h1 { font-size: 20pt; margin: 0 0 2pt; color: #0f172a; letter-spacing: -0.01em; }
h2 { font-size: 14pt; margin: 18pt 0 6pt; color: #0f172a; border-bottom: 2px solid #2563eb; padding-bottom: 3pt; }
h3 { font-size: 11pt; margin: 12pt 0 4pt; color: #0f172a; break-after: avoid; }
h4 { font-size: 10pt; margin: 8pt 0 3pt; break-after: avoid; }
p { margin: 3pt 0 6pt; }
.subtitle { color: #475569; font-size: 10.5pt; margin-bottom: 10pt; }
.muted { color: #64748b; }
.note { color: #64748b; font-size: 8pt; margin: 2pt 0 8pt; }
.url { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 7.5pt; word-break: break-all; }
table { border-collapse: collapse; width: 100%; margin: 4pt 0 8pt; break-inside: avoid; page-break-inside: avoid; }
th, td { padding: 2.5pt 5pt; text-align: left; vertical-align: top; }
table.figures { font-size: 8pt; }
table.figures.long { break-inside: auto; page-break-inside: auto; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
td, th { overflow-wrap: anywhere; }
.name { min-width: 18mm; }
table.figures th { background: #eef2f7; font-weight: 600; border-bottom: 1px solid #cbd5e1; }
table.figures th.group { text-align: center; border-bottom: 1px solid #cbd5e1; }
table.figures td { border-bottom: 1px solid #e2e8f0; }
table.figures tr.merged td { background: #f8fafc; font-weight: 600; border-bottom: 1px solid #94a3b8; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th.num, td.num.effect, table.pairs .num { white-space: normal; }
td.errors { font-size: 7pt; min-width: 14mm; }
table.kv th { width: 30mm; color: #475569; font-weight: 600; white-space: nowrap; }
table.kv td, table.kv th { border-bottom: 1px solid #e2e8f0; }
table.env td { font-size: 8.5pt; }
.tag { display: inline-block; background: #e0e7ff; color: #3730a3; border-radius: 3pt; padding: 0 4pt; font-size: 8pt; }
.pass { color: #047857; } .fail { color: #b91c1c; }
.warning { border-left: 4px solid #d97706; background: #fffbeb; padding: 5pt 8pt; margin: 6pt 0; break-inside: avoid; }
.warning.bad { border-color: #b91c1c; background: #fef2f2; }
figure.chart { margin: 6pt 0 10pt; break-inside: avoid; page-break-inside: avoid; }
figure.chart figcaption { font-weight: 600; font-size: 9.5pt; margin-bottom: 2pt; }
figure.chart > svg { width: 100%; height: auto; display: block; }
svg .grid { stroke: #e2e8f0; stroke-width: 1; }
svg .plot { fill: none; stroke: #94a3b8; stroke-width: 1; }
svg .tick { font-size: 10px; fill: #475569; font-family: inherit; }
svg .axis { font-size: 11px; fill: #334155; font-family: inherit; }
svg .line { fill: none; stroke-width: 1.8; stroke-linejoin: round; stroke-linecap: round; }
svg .band { stroke: none; fill-opacity: 0.18; }
svg .dots { fill: none; stroke-width: 5.5; stroke-linecap: round; stroke-opacity: 0.75; }
.legend { display: flex; flex-wrap: wrap; gap: 2pt 12pt; font-size: 8pt; color: #334155; margin-top: 2pt; }
.legend .key { display: inline-flex; align-items: center; gap: 4pt; white-space: nowrap; }
.legend .key svg { flex: none; }
p.headline { font-size: 11pt; line-height: 1.45; border-left: 4px solid #2563eb; background: #f8fafc;
  padding: 6pt 9pt; margin: 8pt 0 10pt; break-inside: avoid; }
p.choice { font-size: 9.5pt; margin: -4pt 0 10pt; color: #334155; }
table.pairs { table-layout: fixed; }
table.pairs td, table.pairs th { overflow-wrap: anywhere; }
table.pairs tr.pair-head th { background: #e2e8f0; }
td.v-higher, td.v-lower { font-weight: 600; }
td.v-inconclusive, td.v-too-few-rounds { color: #64748b; }
table.side-by-side td:first-child { overflow-wrap: anywhere; }
.run-list td, .run-list th { font-size: 9pt; }
section.run { break-before: page; page-break-before: always; }
.charts-pair { display: block; }
`
