// The HTML report's stylesheet: light and dark schemes from the reader's setting, a phone layout, and print.

export const REPORT_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--card:#f6f8fa;--accent:#0969da;
--good:#1a7f37;--decent:#8a5c00;--bad:#cf222e;--none:#818b98;--pass-bg:#dafbe1;--fail-bg:#ffebe9}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--card:#151b23;
--accent:#4493f8;--good:#3fb950;--decent:#d29922;--bad:#f85149;--none:#9198a1;--pass-bg:#12261e;--fail-bg:#2d1619}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1120px;margin:0 auto;padding:20px 16px 40px}
a{color:var(--accent)}
code{font:0.95em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
h1{font-size:1.6rem;margin:0 0 12px;line-height:1.25}
h2{font-size:1.2rem;margin:0 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
section{margin-top:28px}
.eyebrow{margin:0;color:var(--muted);font-size:.85rem;text-transform:uppercase;letter-spacing:.06em}
.verdict{border:1px solid var(--line);border-left:6px solid var(--good);background:var(--pass-bg);border-radius:6px;padding:10px 14px}
.verdict.failed{border-left-color:var(--bad);background:var(--fail-bg)}
.verdict.neutral{border-left-color:var(--none);background:var(--card)}
.verdict p.note{font-size:1rem;font-weight:400;margin-top:2px}
.verdict p{margin:0;font-size:1.15rem;font-weight:600}
.verdict ul{margin:4px 0 0;padding-left:20px}
.meta{color:var(--muted);margin:8px 0 0}
.note{color:var(--muted)}
.cards{list-style:none;margin:0 0 12px;padding:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:10px}
.cards li{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px 12px}
.cards .n{display:block;font-size:1.7rem;font-weight:650;font-variant-numeric:tabular-nums;line-height:1.2}
/* Its own box, so a card too narrow for "average score median 35.5" on one line puts the median on the next. */
.cards .of{display:inline-block;color:var(--muted);font-size:.85rem;margin-left:4px;white-space:nowrap}
.cards li>span:not(.n){white-space:nowrap}
figure{margin:0}
.table-wrap{margin-top:14px}
figcaption{color:var(--muted);font-size:.9rem;margin-top:4px}
svg{display:block}
svg.spark{overflow:visible}
.spark polyline{fill:none;stroke:var(--accent);stroke-width:1.5;stroke-linejoin:round}
.spark circle{fill:var(--accent)}
svg.share{width:100%;height:18px;border-radius:4px;overflow:hidden;background:var(--line)}
svg.histogram{width:100%;max-width:720px;height:auto}
.histogram text{font-size:15px;text-anchor:middle}
.histogram .count{fill:var(--fg);font-weight:600}
.histogram .axis{fill:var(--muted)}
.histogram .base{stroke:var(--line)}
.good rect,rect.good{fill:var(--good)}
.decent rect,rect.decent{fill:var(--decent)}
.bad rect,rect.bad{fill:var(--bad)}
rect.none{fill:var(--none)}
rect.error{fill:var(--muted)}
.result{white-space:nowrap}
.result::before{content:"";display:inline-block;width:.65em;height:.65em;border-radius:50%;margin-right:.35em;background:var(--none);vertical-align:.05em}
.result.good::before{background:var(--good)}
.result.decent::before{background:var(--decent)}
.result.bad::before{background:var(--bad)}
.result.error::before{background:var(--muted);border-radius:1px}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
caption{text-align:left;color:var(--muted);font-size:.9rem;padding-bottom:4px}
th,td{padding:5px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-weight:600;white-space:nowrap}
.num{text-align:right}
td.url,.url,ul.urls li,.verdict li,dd,caption,td.message{overflow-wrap:anywhere}
#reports td.url{max-width:40em}
.clamp{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:3;line-clamp:3;overflow:hidden}
@media print{.clamp{display:inline;-webkit-line-clamp:none}}
dl.ran{display:flex;flex-wrap:wrap;gap:4px 20px;margin:8px 0 0;color:var(--muted)}
dl.ran div{display:flex;gap:6px;min-width:0}
dl.ran dt{font-weight:600}
dl.ran dd{margin:0}
/* Left-aligned (not .num), so every row's disclosure button stands in one column whatever the id's length. */
#reports td.id{white-space:nowrap}
button.open{background:none;border:0;padding:0 6px 0 0;cursor:pointer;color:var(--muted)}
button.open::before{content:"\\25B8";display:inline-block}
button.open[aria-expanded=true]::before{transform:rotate(90deg)}
#reports tbody tr:not(.detail){cursor:pointer}
tr.failing td:first-child{box-shadow:inset 4px 0 var(--bad)}
.failing-mark{display:block;font-size:.75rem;color:var(--bad);font-weight:600}
tr.detail td{background:var(--card);padding:8px 14px 10px}
tr.detail p{margin:0 0 4px}
tr.detail ul{margin:0 0 6px;padding-left:20px}
ul.why li{color:var(--bad)}
ul.checks li{overflow-wrap:anywhere}
.importance{display:inline-block;min-width:4.2em;font-size:.8rem;color:var(--muted)}
.importance.high{color:var(--bad);font-weight:600}
.controls label.check{flex-direction:row;align-items:center;gap:6px;color:var(--fg);font-size:1rem}
.table-wrap{overflow-x:auto}
#reports-wrap{overflow-x:visible}
td.date{white-space:nowrap}
.meter{display:inline-block;width:90px;height:8px;border-radius:4px;background:var(--line);vertical-align:middle;margin-left:8px;overflow:hidden}
.meter>span{display:block;height:100%;background:var(--accent)}
.meter.bad>span{background:var(--bad)}
details{margin-top:8px}
summary{cursor:pointer;color:var(--muted)}
ul.urls{margin:6px 0;padding-left:20px;columns:2 320px}
ul.urls li{overflow-wrap:anywhere}
.grid2{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:24px}
.controls{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:end;margin:0 0 8px}
.controls label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted)}
input,select,button{font:inherit;color:inherit}
input[type=search],select{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:5px 8px;min-width:12em}
#table-status{margin:0 0 6px;color:var(--muted)}
#reports thead th{position:sticky;top:0;background:var(--bg);box-shadow:inset 0 -1px var(--line)}
/* A no-break space: a heading that wraps on a phone keeps its arrow beside its last word. */
th button{background:none;border:0;padding:0;font-weight:600;cursor:pointer;text-align:inherit}
th button::after{content:"\\a0\\2195";color:var(--muted);font-weight:400}
th[aria-sort=ascending] button::after{content:"\\a0\\25B2";color:var(--fg)}
th[aria-sort=descending] button::after{content:"\\a0\\25BC";color:var(--fg)}
#table-more{margin-top:10px}
#table-more button,.controls button{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:5px 12px;cursor:pointer}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{margin-top:40px;color:var(--muted);font-size:.85rem}
html:not(.scripted) .controls,html:not(.scripted) #table-more{display:none}
@media (max-width:760px){
main{padding:14px 10px 32px}
h1{font-size:1.3rem}
.grid2{grid-template-columns:minmax(0,1fr)}
#reports-wrap{overflow-x:auto}
#reports thead th{position:static}
th,td{padding:5px 6px}
.meter{width:50px}
}
@media (max-width:560px){
/* A phone shows what matters most: the URL names the project's host, and the date is on the report. */
#reports th:nth-child(3),#reports td:nth-child(3),#reports th:nth-child(6),#reports td:nth-child(6){display:none}
/* A URL beside long lists of checks keeps room for a word a line, not three letters. */
td.url{overflow-wrap:anywhere;min-width:7em}
/* At 390 px every table fits the screen: headings wrap (a long project name too, when nothing else makes room), a
   meter goes under its number, a trend line is drawn smaller, cells are closer, the runs-by-projects numbers smaller. */
th{white-space:normal}
th[scope=row],table.compact th{overflow-wrap:anywhere}
/* A project's host breaks between its labels only (hostName puts a chance after each dot), never inside one. */
.host{overflow-wrap:normal;word-break:keep-all}
table.compact{font-size:.85rem}
th,td{padding:5px 4px}
.meter{display:block;margin:4px 0 0 auto}
svg.spark{width:72px;height:18px}
/* An opened row's detail wraps within the screen, even when a table wider than it scrolls sideways. */
tr.detail td>*{position:sticky;left:14px;max-width:calc(100vw - 48px)}
}
@media print{
:root{color-scheme:light;--bg:#fff;--fg:#000;--muted:#444;--line:#bbb;--card:#fff;--accent:#000;--pass-bg:#fff;--fail-bg:#fff;
--good:#1a7f37;--decent:#8a5c00;--bad:#cf222e;--none:#818b98}
.result::before,.meter,.meter>span,svg{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{font-size:10.5pt}
main{max-width:none;padding:0}
.controls,#table-more,th button::after,noscript{display:none}
a{text-decoration:none;color:inherit}
section{break-inside:auto}
h2{break-after:avoid}
tr,figure,.cards li{break-inside:avoid}
#reports thead th{position:static;box-shadow:none}
thead{display:table-header-group}
.table-wrap{overflow:visible}
}
`;
