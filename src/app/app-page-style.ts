/** The app page's style sheet: one column that reads on a phone (390 px) and stays narrow on a desktop. */
export const APP_STYLE = `*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2430; background: #f6f7f9; }
header { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: baseline; justify-content: space-between; padding: 0.75rem 1rem; background: #fff; border-bottom: 1px solid #dde1e6; }
.brand { font-weight: 700; color: inherit; text-decoration: none; }
#who { color: #5b6573; font-size: 0.875rem; overflow-wrap: anywhere; }
main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0.25rem 0 0.75rem; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 1.5rem 0 0.5rem; }
.kind { color: #5b6573; font-size: 0.8125rem; text-transform: uppercase; letter-spacing: 0.04em; }
section, form { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 0.75rem 1rem; margin: 0.75rem 0; }
dl { display: grid; grid-template-columns: minmax(6rem, max-content) 1fr; gap: 0.25rem 1rem; margin: 0; }
dt { color: #5b6573; }
dd { margin: 0; overflow-wrap: anywhere; }
ul { margin: 0; padding-left: 1.25rem; }
li { margin: 0.2rem 0; overflow-wrap: anywhere; }
a { color: #1f5fbf; }
code, pre { font: 0.875rem/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; max-height: 24rem; overflow: auto; }
label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
input { width: 100%; font: inherit; padding: 0.5rem; border: 1px solid #b8c0ca; border-radius: 6px; }
button { font: inherit; margin-top: 0.5rem; padding: 0.45rem 1rem; border: 0; border-radius: 6px; background: #1f5fbf; color: #fff; cursor: pointer; }
button.link { background: none; color: #1f5fbf; padding: 0; margin: 0; text-decoration: underline; }
.notice { border-left: 4px solid #c2410c; }
.muted { color: #5b6573; }
@media (max-width: 30rem) { dl { grid-template-columns: 1fr; } dt { margin-top: 0.4rem; } h1 { font-size: 1.3rem; } }
`;
