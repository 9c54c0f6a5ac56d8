/**
 * The stylesheet of the emulator's embed pages, served as `/embed/_assets/page.css`. Every color,
 * radius and font comes from a custom property on the root element, which the color scheme
 * (`data-color-scheme`) and the theme (`set-theme`, the session's `embedTheme`) set. Text colors
 * meet WCAG AA contrast on their backgrounds in both schemes.
 *
 * @module
 */

/** The CSS text. */
export const PAGE_CSS = `
:root {
  color-scheme: light;
  --svc-primary: #2451b7;
  --svc-on-primary: #ffffff;
  --svc-radius: 6px;
  --svc-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --svc-bg: #ffffff;
  --svc-surface: #f6f7f9;
  --svc-fg: #1b1d21;
  --svc-muted: #52575f;
  --svc-border: #d0d4da;
  --svc-error: #a4161a;
  --svc-grid-line: #e3e6ea;
  --svc-chat-bg: var(--svc-surface);
  --svc-chat-input-bg: var(--svc-bg);
  --svc-chat-input-border: var(--svc-border);
  --svc-series-0: #2451b7;
  --svc-series-1: #c2410c;
  --svc-series-2: #15803d;
  --svc-series-3: #7e22ce;
  --svc-series-4: #0e7490;
  --svc-series-5: #a16207;
}
:root[data-color-scheme="dark"] {
  color-scheme: dark;
  --svc-primary: #8ab4ff;
  --svc-on-primary: #0b1020;
  --svc-bg: #14161a;
  --svc-surface: #1e2127;
  --svc-fg: #eef0f3;
  --svc-muted: #b4bac3;
  --svc-border: #3a3f47;
  --svc-error: #ff8a8a;
  --svc-grid-line: #2c3037;
  --svc-series-0: #8ab4ff;
  --svc-series-1: #fdba74;
  --svc-series-2: #86efac;
  --svc-series-3: #d8b4fe;
  --svc-series-4: #67e8f9;
  --svc-series-5: #fde047;
}
* { box-sizing: border-box; }
html, body { margin: 0; }
body {
  background: var(--svc-bg);
  color: var(--svc-fg);
  font-family: var(--svc-font);
  font-size: 15px;
  line-height: 1.45;
}
#svc-root { padding: 16px 16px 72px; }
.svc-visually-hidden {
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.svc-probe { color: var(--svc-primary); border-radius: var(--svc-radius); position: absolute; }
.svc-title { font-size: 1.4rem; margin: 0 0 4px; }
.svc-subtitle { font-size: 1.1rem; margin: 16px 0 8px; }
.svc-muted { color: var(--svc-muted); margin: 0; }
.svc-notice { background: var(--svc-surface); border: 1px solid var(--svc-border); border-radius: var(--svc-radius); padding: 8px 12px; }
.svc-error { border: 2px solid var(--svc-error); border-radius: var(--svc-radius); padding: 16px; max-width: 40rem; margin: 24px auto; }
.svc-error-text { color: var(--svc-error); }
:focus-visible { outline: 3px solid var(--svc-primary); outline-offset: 2px; }
.svc-button {
  font: inherit; color: var(--svc-fg); background: var(--svc-surface);
  border: 1px solid var(--svc-border); border-radius: var(--svc-radius);
  padding: 4px 12px; cursor: pointer; min-height: 32px;
}
.svc-button:disabled { opacity: 0.6; cursor: default; }
.svc-primary { background: var(--svc-primary); color: var(--svc-on-primary); border-color: var(--svc-primary); }
.svc-link {
  font: inherit; color: var(--svc-fg); background: none; border: 0; padding: 2px 0;
  text-decoration: underline; text-decoration-color: var(--svc-primary); text-decoration-thickness: 2px;
  cursor: pointer;
}
.svc-link[aria-current] { font-weight: 700; }
.svc-dashboard-header { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: flex-start; justify-content: space-between; margin-bottom: 16px; }
.svc-toolbar { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; }
.svc-menu { position: relative; }
.svc-menu > summary { list-style: none; }
.svc-menu-items { position: absolute; right: 0; z-index: 2; display: grid; gap: 4px; padding: 8px; background: var(--svc-bg); border: 1px solid var(--svc-border); border-radius: var(--svc-radius); min-width: 14rem; }
.svc-grid { display: grid; grid-template-columns: repeat(12, minmax(0, 1fr)); grid-auto-rows: minmax(60px, auto); gap: 16px; }
.svc-widget {
  grid-column: var(--svc-x) / span var(--svc-w); grid-row: var(--svc-y) / span var(--svc-h);
  background: var(--svc-surface); border: 1px solid var(--svc-border); border-radius: var(--svc-radius);
  padding: 12px; min-width: 0; display: flex; flex-direction: column; gap: 8px;
}
@media (max-width: 720px) { .svc-widget { grid-column: 1 / -1; grid-row: auto; } }
.svc-widget-header { display: flex; gap: 8px; align-items: baseline; justify-content: space-between; flex-wrap: wrap; }
.svc-widget-title { font-size: 1rem; margin: 0; }
.svc-widget-actions { display: flex; gap: 8px; align-items: center; }
.svc-widget-body { min-height: 0; overflow: auto; }
.svc-text p { margin: 0 0 8px; }
.svc-field { display: flex; gap: 8px; align-items: center; }
.svc-field select, .svc-chat-form input {
  font: inherit; color: var(--svc-fg); background: var(--svc-bg);
  border: 1px solid var(--svc-border); border-radius: var(--svc-radius); padding: 4px 8px; min-height: 32px;
}
.svc-chart { width: 100%; height: auto; display: block; }
.svc-grid-line { stroke: var(--svc-grid-line); }
.svc-axes line { stroke: var(--svc-grid-line); }
.svc-tick { fill: var(--svc-muted); font-size: 11px; font-family: var(--svc-font); }
.svc-bar, .svc-dot { fill: var(--svc-primary); cursor: pointer; }
.svc-line { stroke: var(--svc-primary); stroke-width: 2; }
.svc-mark:focus-visible { outline: none; stroke: var(--svc-fg); stroke-width: 3; }
.svc-mark:hover { opacity: 0.85; }
.svc-slice { cursor: pointer; stroke: var(--svc-bg); stroke-width: 1; }
.svc-series-0 { fill: var(--svc-series-0); background: var(--svc-series-0); }
.svc-series-1 { fill: var(--svc-series-1); background: var(--svc-series-1); }
.svc-series-2 { fill: var(--svc-series-2); background: var(--svc-series-2); }
.svc-series-3 { fill: var(--svc-series-3); background: var(--svc-series-3); }
.svc-series-4 { fill: var(--svc-series-4); background: var(--svc-series-4); }
.svc-series-5 { fill: var(--svc-series-5); background: var(--svc-series-5); }
.svc-pie-wrap { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
.svc-pie { max-width: 220px; }
.svc-legend { list-style: none; margin: 0; padding: 0; display: grid; gap: 4px; }
.svc-swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 6px; vertical-align: middle; }
.svc-kpi { display: grid; gap: 4px; margin: 0; }
.svc-kpi-value { font-size: 2rem; font-weight: 700; }
.svc-kpi-label { color: var(--svc-muted); }
.svc-table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
.svc-table th, .svc-table td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--svc-border); }
.svc-table .svc-num { text-align: right; font-variant-numeric: tabular-nums; }
.svc-cell-drill { font: inherit; color: inherit; background: none; border: 0; padding: 0; cursor: pointer; text-decoration: underline dotted; }
.svc-breadcrumbs { margin-bottom: 8px; }
.svc-app { display: grid; grid-template-columns: minmax(10rem, 14rem) 1fr; gap: 24px; }
@media (max-width: 720px) { .svc-app { grid-template-columns: 1fr; } }
.svc-app-nav ul, .svc-home ul, .svc-chat-history ul { list-style: none; margin: 0 0 12px; padding: 0; display: grid; gap: 6px; }
.svc-folder h3 { font-size: 0.95rem; margin: 12px 0 6px; color: var(--svc-muted); }
.svc-chat { display: grid; grid-template-columns: auto 1fr; gap: 16px; }
.svc-chat-history { min-width: 12rem; }
.svc-chat-main { display: grid; gap: 8px; background: var(--svc-chat-bg); border: 1px solid var(--svc-border); border-radius: var(--svc-radius); padding: 12px; min-width: 0; }
.svc-chat-header { display: flex; gap: 8px; align-items: center; justify-content: space-between; }
.svc-chat-log { display: grid; gap: 8px; max-height: 60vh; overflow: auto; }
.svc-chat-message { border-radius: var(--svc-radius); padding: 8px 12px; border: 1px solid var(--svc-border); background: var(--svc-bg); }
.svc-chat-message p { margin: 0 0 6px; }
.svc-chat-message p:last-child { margin-bottom: 0; }
.svc-chat-message ul, .svc-chat-message ol { margin: 0 0 6px; padding-left: 1.4em; }
.svc-chat-user p { white-space: pre-wrap; }
.svc-chat-user { justify-self: end; }
.svc-chat-form { display: grid; gap: 4px; }
.svc-chat-row { display: flex; gap: 8px; }
.svc-chat-row input { flex: 1; background: var(--svc-chat-input-bg); border-color: var(--svc-chat-input-border); }
.svc-chat-panel { margin-top: 16px; }
.svc-launcher { position: fixed; right: 16px; bottom: 16px; border-radius: 999px; padding: 8px 16px; }
`;
