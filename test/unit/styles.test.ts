// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Read from disk: vitest hands CSS imports (even `?raw`) to tests as empty strings.
const css = readFileSync(new URL('../../src/styles.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

/** The custom properties declared in the rule whose selector list is exactly `selector`. */
function tokensOf(selector: string): string[] {
  const start = css.indexOf(`${selector} {`);
  if (start === -1) throw new Error(`no rule for ${selector}`);
  const body = css.slice(css.indexOf('{', start) + 1, css.indexOf('}', start));
  return [...body.matchAll(/(--service-[a-z0-9-]+)\s*:/g)].map((match) => match[1] ?? '').sort();
}

describe('styles.css theme blocks', () => {
  // The chart tooltip lives on <body>, outside any themed element: it takes the chart's scheme.
  const light = tokensOf(":root,\n[data-service-theme='light'],\n#vg-tooltip-element.light-theme");
  const systemDark = tokensOf(":root:not([data-service-theme='light'])");
  const forcedDark = tokensOf("[data-service-theme='dark'],\n#vg-tooltip-element.dark-theme");

  it('declares colour tokens in the light block', () => {
    expect(light.filter((token) => token.startsWith('--service-color-')).length).toBeGreaterThan(10);
  });

  it('the system-dark block overrides exactly the light tokens', () => {
    expect(systemDark).toEqual(light);
  });

  it('the forced-dark block overrides exactly the light tokens', () => {
    expect(forcedDark).toEqual(light);
  });

  it('the system-dark block sits inside prefers-color-scheme: dark', () => {
    const media = css.indexOf('@media (prefers-color-scheme: dark)');
    expect(media).toBeGreaterThan(-1);
    expect(css.indexOf(":root:not([data-service-theme='light'])")).toBeGreaterThan(media);
  });
});
