/*
 * The published pages' stylesheet. Three widths: a phone (below 768 px) stacks everything in one
 * column, the sidebar folded behind its "Menu" summary and the outline behind "On this page"; a
 * tablet (768 to 1023 px) keeps the sidebar and puts the outline, folded, above the text; wider
 * screens have three columns. Both folds are `<details>`, so they work without any script; from
 * the widths where they are columns, `::details-content` shows their content whatever their state
 * (a browser without it shows the summary, and the reader opens it).
 *
 * Themes: `html.light` and `html.dark` are the reader's choice; without either, the system's
 * `prefers-color-scheme` decides.
 */

const DARK_VARS = '--bg:#121316;--fg:#ececef;--muted:#9a9aa5;--line:#2a2b30;--code:#1c1d21;--tok-key:#ff7ab2;--tok-str:#8fd18f;--tok-num:#8ab4ff;--tok-title:#e0b0ff;--tok-attr:#ffc66d;color-scheme:dark';

const CSS = `
:root{--bg:#fff;--fg:#1d1d1f;--muted:#6b6b75;--line:#e6e6ea;--code:#f5f5f7;--accent:VAR_LIGHT;--tok-key:#c2185b;--tok-str:#2e7d32;--tok-num:#1565c0;--tok-title:#6a1b9a;--tok-attr:#8d6e00;color-scheme:light}
html.dark{${DARK_VARS};--accent:VAR_DARK}
@media (prefers-color-scheme:dark){html:not(.light){${DARK_VARS};--accent:VAR_DARK}}
*{box-sizing:border-box}.skip{position:absolute;left:1rem;top:-3rem;z-index:20;padding:.4rem .8rem;border-radius:6px;background:var(--bg);color:var(--accent);border:1px solid var(--line)}.skip:focus{top:.5rem}article:focus{outline:none}
body{margin:0;font:16px/1.6 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}
header .home{font-weight:700;color:var(--fg);text-decoration:none}header .logo{height:1.5rem;vertical-align:middle;margin-right:.5rem}
.logo-dark{display:none}html.dark .logo-light{display:none}html.dark .logo-dark{display:inline}
@media (prefers-color-scheme:dark){html:not(.light) .logo-light{display:none}html:not(.light) .logo-dark{display:inline}}
header nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center}header nav a,.tabgroup>summary{text-decoration:none;color:var(--muted);cursor:pointer}
header nav a.active,.tabgroup>summary.active{color:var(--fg);border-bottom:2px solid var(--accent)}header nav.links a{color:var(--accent)}
.tabgroup{position:relative}.tabgroup>summary{list-style:none}.tabgroup>summary::-webkit-details-marker{display:none}.tabgroup>summary::after{content:" ▾";font-size:.75em}
.tabmenu{position:absolute;z-index:10;top:1.9rem;left:0;min-width:12rem;padding:.4rem 0;background:var(--bg);border:1px solid var(--line);border-radius:8px;box-shadow:0 6px 24px rgb(0 0 0/.15)}
.tabmenu a{display:block;padding:.3rem .9rem;color:var(--fg)!important;border:0!important}.tabmenu a.active{font-weight:600}
header .search{margin-left:auto}header .search input{padding:.3rem .5rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.theme{display:flex;gap:.1rem;font-size:.8rem;border:1px solid var(--line);border-radius:6px;padding:.1rem}.theme a{padding:.05rem .4rem;border-radius:4px;color:var(--muted);text-decoration:none}.theme a[aria-current]{background:var(--code);color:var(--fg)}
.variants{padding:.25rem 1.5rem;font-size:.85rem;border-bottom:1px solid var(--line)}.variants a{margin-right:.75rem}.variants a.active{font-weight:700}
main{display:grid;grid-template-columns:16rem minmax(0,1fr) 14rem;column-gap:2rem;max-width:80rem;margin:0 auto;padding:1.5rem}
.pages{grid-column:1;grid-row:1}article{grid-column:2;grid-row:1;min-width:0;overflow-wrap:break-word}.outline{grid-column:3;grid-row:1}
main.nosidebar{grid-template-columns:minmax(0,1fr) 14rem}main.nosidebar article{grid-column:1}main.nosidebar .outline{grid-column:2}
main.nooutline{grid-template-columns:16rem minmax(0,1fr)}main.nosidebar.nooutline{grid-template-columns:minmax(0,1fr);max-width:52rem}
.pages,.outline{align-self:start;position:sticky;top:0;max-height:100vh;overflow:auto}
.pages>summary,.outline>summary{cursor:pointer;font-weight:600}.outline>summary{font-size:.85rem}
nav.pages-list ul{list-style:none;padding-left:.75rem;margin:0}nav.pages-list>ul{padding-left:0}nav.pages-list li a{display:block;padding:.15rem 0;color:var(--fg);text-decoration:none}
nav.pages-list li a.active{color:var(--accent);font-weight:600}nav.pages-list .group{margin-top:1rem;font-size:.75rem;text-transform:uppercase;color:var(--muted)}
.outline aside{font-size:.85rem}.outline a{display:block;color:var(--muted);text-decoration:none;padding:.1rem 0}.outline .d3{padding-left:.75rem}
article pre{position:relative;background:var(--code);padding:1rem;overflow:auto;border-radius:6px}article code{background:var(--code);padding:.1rem .25rem;border-radius:4px}article pre code{padding:0}
.copy{position:absolute;top:.4rem;right:.4rem;font:inherit;font-size:.75rem;padding:.1rem .5rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--muted);cursor:pointer}
article table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse}article th,article td{border:1px solid var(--line);padding:.35rem .6rem}article img{max-width:100%;height:auto}
.description{color:var(--muted);font-size:1.1rem}.updated{margin-top:2rem;font-size:.85rem;color:var(--muted)}
.hint{margin:1rem 0;padding:.6rem 1rem;border-left:4px solid var(--hint);border-radius:6px;background:color-mix(in srgb,var(--hint) 10%,var(--bg))}.hint>:first-child{margin-top:0}.hint>:last-child{margin-bottom:0}
.hint-info{--hint:#346ddb}.hint-success{--hint:#02a36a}.hint-warning{--hint:#e08a00}.hint-danger{--hint:#e5323b}
.pager{display:flex;gap:1rem;justify-content:space-between;margin-top:1.5rem;border-top:1px solid var(--line);padding-top:1rem}
.pager a{flex:1;max-width:50%;padding:.6rem .9rem;border:1px solid var(--line);border-radius:8px;text-decoration:none}.pager a[rel=next]{text-align:right;margin-left:auto}.pager small{display:block;color:var(--muted)}
footer{display:flex;flex-wrap:wrap;gap:1.5rem 3rem;max-width:80rem;margin:2rem auto;padding:1.5rem;border-top:1px solid var(--line);font-size:.9rem}footer section a{display:block;color:var(--muted)}footer .copyright{margin-left:auto;color:var(--muted)}
.results>li{margin-bottom:1rem}.results mark{background:#fde68a;color:#1d1d1f}
.integration-block{margin:1rem 0}.integration-block-failed{padding:.75rem 1rem;border:1px dashed var(--line);border-radius:6px;color:var(--muted)}
.ck-vstack{display:flex;flex-direction:column;gap:.5rem}.ck-hstack{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.ck-card{border:1px solid var(--line);border-radius:6px;padding:.75rem}
.ck-card-title{font-weight:600;margin:0 0 .5rem}.ck-webframe iframe{display:block;width:100%;border:0}.ck-image{max-width:100%}
.hljs-keyword,.hljs-built_in,.hljs-literal,.hljs-selector-tag{color:var(--tok-key)}.hljs-string,.hljs-regexp,.hljs-addition{color:var(--tok-str)}.hljs-number,.hljs-symbol,.hljs-variable,.hljs-template-variable{color:var(--tok-num)}
.hljs-title,.hljs-section,.hljs-function .hljs-title{color:var(--tok-title)}.hljs-attr,.hljs-attribute,.hljs-meta,.hljs-type,.hljs-params{color:var(--tok-attr)}.hljs-comment,.hljs-quote,.hljs-deletion{color:var(--muted);font-style:italic}
@supports selector(details::details-content){
@media (min-width:768px){.pages>summary{display:none}.pages::details-content{content-visibility:visible;display:contents}}
@media (min-width:1024px){.outline>summary{pointer-events:none;list-style:none}.outline>summary::-webkit-details-marker{display:none}.outline::details-content{content-visibility:visible;display:contents}}
}
@media (max-width:1023px){
header{gap:.5rem 1rem}header .search{flex:0 1 11rem}header .search input{width:100%}
main{grid-template-columns:14rem minmax(0,1fr)}main.nosidebar{grid-template-columns:minmax(0,1fr)}main.nooutline{grid-template-columns:14rem minmax(0,1fr)}
.pages{grid-row:1/span 2}.outline{grid-column:2;grid-row:1;position:static;margin-bottom:1rem;padding:.4rem .75rem;border:1px solid var(--line);border-radius:6px}
article{grid-row:2}main.nooutline article{grid-row:1}main.nosidebar .outline,main.nosidebar article{grid-column:1}
}
@media (max-width:767px){
header{padding:.5rem 1rem;gap:.5rem .75rem}header .home{flex:1}header .theme{order:1}header nav{order:2;flex-basis:100%}header .search{order:3;flex-basis:100%;margin:0}header .search input{width:100%}
main{display:block;padding:1rem}.pages,.outline{position:static;max-height:none;margin-bottom:1rem}
.pages>summary{display:inline-block;padding:.3rem .8rem;border:1px solid var(--line);border-radius:6px}.pages[open]>summary{margin-bottom:.5rem}.pages nav{padding:.5rem 0;border-bottom:1px solid var(--line)}
.pager{flex-direction:column}.pager a{max-width:none}footer{padding:1rem}
}
`;

/** The stylesheet with the site's primary colour for each theme. */
export const pageStyle = (accent: { light: string; dark: string }) => CSS.replaceAll('VAR_LIGHT', accent.light).replaceAll('VAR_DARK', accent.dark);
