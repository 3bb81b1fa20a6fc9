// `rsapi history html`'s own rules, after the per-run report's stylesheet (REPORT_CSS): its charts, the checks-by-week
// grid, the runs' buttons and a phone's layout.

export const HISTORY_CSS = `
.skip{position:absolute;left:-9999px}
.skip:focus{left:8px;top:8px;background:var(--bg);padding:4px 8px;z-index:1}
svg.line-chart{width:100%;height:auto}
.line-chart path{fill:none;stroke:var(--accent);stroke-width:2.5;stroke-linejoin:round}
.line-chart circle{fill:var(--accent)}
.line-chart .grid{stroke:var(--line)}
.line-chart text{font-size:14px;fill:var(--muted)}
#runs button.run,button.trend-button,button.match{font:inherit;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:1px 8px;cursor:pointer;color:var(--accent)}
button.trend-button{font-size:.8rem;padding:0 6px}
button.match{text-align:left;overflow-wrap:anywhere;color:var(--fg)}
button.match[aria-current=true]{border-color:var(--accent)}
#runs th button::after{content:none}
#weeks{width:auto;min-width:min(100%,36em)}
#changes td.url{min-width:14em;overflow-wrap:anywhere}
#runs tr.chosen th,#runs th button::after{content:none}
#weeks{width:auto;min-width:min(100%,36em)}
#changes td.url{min-width:14em;overflow-wrap:anywhere}
#runs tr.chosen td{background:var(--card)}
td.failed{color:var(--bad);font-weight:600}
td.changes{min-width:12em}
td.changes .worse{color:var(--bad)}
td.checks{min-width:12em}
td.checks span{display:block}
td.checks .new-failures{color:var(--bad)}
#jobs th a{white-space:nowrap}
a.report{margin-left:4px;font-size:.85rem;white-space:nowrap}
td.heat{background:color-mix(in srgb,var(--bad) calc(var(--share,0) * 55%),transparent);min-width:2.6em}
#weeks th[scope=row]{font-weight:400;white-space:nowrap}
ul.matches{list-style:none;margin:6px 0;padding:0;display:flex;flex-direction:column;gap:4px}
#page-url{font-size:1rem;margin:12px 0 6px;overflow-wrap:anywhere}
#page-view figure{max-width:720px}
.controls select{max-width:100%}
.controls label{min-width:0;max-width:100%}
[hidden]{display:none!important}
@media (max-width:560px){
.controls{flex-direction:column;align-items:stretch}
input[type=search],select{min-width:0;width:100%}
#jobs th:nth-child(2),#jobs td:nth-child(2){display:none}
td.changes{min-width:0}
td.checks{min-width:8em;overflow-wrap:anywhere}
#runs td.date,#page-runs td.date{white-space:normal}
#page-runs .result{display:inline-block}
#changes td.url{min-width:8em}
#weeks th[scope=row]{white-space:normal;overflow-wrap:anywhere}
#changes th:nth-child(2),#changes td:nth-child(2){display:none}
}
`;
