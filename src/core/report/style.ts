// The report's stylesheet, inlined in its <style>: system fonts only (nothing to fetch), colours with
// AA contrast on white, every verdict a word as well as a colour, and print rules so it reads on paper.
export const REPORT_CSS = `
:root { --fg: #1d2330; --muted: #4d5668; --border: #c9ced8; --good: #17703a; --good-bg: #dcf3e3; --bad: #b3261e; --bad-bg: #fde7e5; --head: #f3f4f7; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1180px; padding: 16px 24px 48px; color: var(--fg); background: #fff;
  font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
h1 { font-size: 22px; margin: 8px 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--border); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 24px 0 4px; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace; overflow-wrap: anywhere; }
a { color: #1f4fb8; }
.muted { color: var(--muted); }
.small { font-size: 12px; }
.good { color: var(--good); background: var(--good-bg); font-weight: 600; padding: 0 5px; border-radius: 8px; white-space: nowrap; }
.bad { color: var(--bad); background: var(--bad-bg); font-weight: 600; padding: 0 5px; border-radius: 8px; }
ul.bad { padding: 6px 6px 6px 28px; border-radius: 4px; }
.summary { padding-left: 20px; }
nav ol { padding-left: 22px; margin: 4px 0; }
nav h2 { border: none; margin-top: 12px; }
table { border-collapse: collapse; width: 100%; margin: 10px 0 4px; font-size: 13px; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { border: 1px solid var(--border); padding: 4px 6px; vertical-align: top; text-align: left; }
thead th, tfoot th { background: var(--head); }
tbody th { font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.where { white-space: nowrap; }
td.quote { color: var(--muted); font-style: italic; }
.value { font-weight: 600; }
.note, .description, .meta { margin: 4px 0; }
.description { white-space: pre-wrap; }
figure.chart { margin: 10px 0; }
figure.chart svg { max-width: 100%; height: auto; border: 1px solid var(--border); }
figcaption { color: var(--muted); font-size: 12px; }
section.scenario { border-top: 1px solid var(--border); margin-top: 20px; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  nav { break-after: page; }
  h2, h3 { break-after: avoid; }
  tr, figure { break-inside: avoid; }
  section.scenario { break-before: auto; }
  a { color: inherit; text-decoration: none; }
  .good, .bad { border: 1px solid currentColor; }
}
@page { margin: 14mm 12mm; }
`;
