/**
 * The dashboard's stylesheet: system fonts, contrast ≥ 4.5:1 for text on its
 * background, a visible focus ring, and one column below 40rem so the page
 * works at 375 px; wide tables scroll inside their own focusable box.
 */
export const DASHBOARD_CSS = `
:root{--fg:#1a1a1a;--muted:#555;--bg:#fff;--panel:#f5f6f8;--line:#c9ced6;--accent:#0b57d0;--ok:#146c2e;--warn:#8a4b00;--bad:#b3261e}
*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:var(--bg);padding:.3rem .6rem;z-index:9}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid var(--line);background:var(--panel)}
header h1{font-size:1.2rem;margin:0}
main{max-width:72rem;margin:0 auto;padding:0 1rem 3rem}
section{margin:1.5rem 0}
h2{font-size:1.1rem;margin:0 0 .5rem}
h3{font-size:1rem;margin:1rem 0 .4rem}
.pill{display:inline-block;padding:.1rem .5rem;border-radius:1rem;border:1px solid currentColor;font-size:.85rem}
.ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}.muted{color:var(--muted)}
form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
label{display:flex;flex-direction:column;font-size:.9rem;gap:.2rem}
input,select,button{font:inherit;padding:.35rem .5rem;border:1px solid #767676;border-radius:4px;background:var(--bg);color:var(--fg);min-height:2.25rem}
button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer}
button.secondary{background:var(--bg);color:var(--accent)}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top;white-space:nowrap}
td.wrap{white-space:normal}
th{background:var(--panel)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85rem}
details{border:1px solid var(--line);border-radius:6px;padding:.4rem .7rem;margin:.5rem 0}
summary{cursor:pointer;font-weight:600}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:1rem}
figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:.5rem}
figcaption{font-weight:600;font-size:.9rem}
svg{width:100%;height:auto;display:block}
.legend{display:flex;flex-wrap:wrap;gap:.2rem .8rem;font-size:.8rem;list-style:none;padding:0;margin:.3rem 0 0}
.legend span{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:middle}
ol.results{padding-left:1.2rem}
ol.results button{background:none;color:var(--accent);border:0;padding:.1rem;text-align:left;text-decoration:underline;min-height:0}
.slice{border:1px solid var(--line);border-radius:6px;overflow-x:auto;background:var(--panel)}
.slice pre{margin:0;padding:.5rem}
.slice .ln{color:var(--muted);user-select:none}
.slice .hit{background:#fff3c4;display:inline-block;min-width:100%}
.live li{margin:.3rem 0}
progress{width:10rem;vertical-align:middle}
@media (max-width:40rem){body{font-size:14px}main{padding:0 .6rem 2rem}.charts{grid-template-columns:1fr}form>*{flex:1 1 100%}}
`;
