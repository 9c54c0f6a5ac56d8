/**
 * StreamingMarkdown against hostile markdown in real Chromium: nothing executes, no request
 * leaves the page, and the DOM holds no element or attribute that could do either.
 *
 * Every URL in the payloads points at the fake embed server of global-setup.ts (another origin,
 * a real server) with a `probe-` path, so a request that did leave would show up in the page's
 * resource timing. A control test shows the probe is seen when an image is allowed to load.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { StreamingMarkdown } from '../../src/components/markdown';

const origin = inject('embedOrigin');

declare global {
  interface Window {
    __markdownPwned?: string;
  }
}

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const SET = (how: string) => `window.__markdownPwned='${how}'`;

/** Markdown an agent (or a prompt injection) could produce. */
const PAYLOADS: readonly string[] = [
  `<script>${SET('script')}</script>`,
  `Inline <script>${SET('inline script')}</script> script`,
  `<img src="${origin}/probe-raw-img.png" onerror="${SET('img onerror')}">`,
  `text <img src=x onerror=${SET('inline img onerror')}> text`,
  `<iframe src="${origin}/probe-iframe"></iframe>`,
  `<iframe srcdoc="<script>parent.${SET('srcdoc')}</script>"></iframe>`,
  `<svg onload="${SET('svg onload')}"><circle r="1"/></svg>`,
  `<div onmouseover="${SET('div mouseover')}" style="position:fixed;inset:0">cover</div>`,
  `<a href="javascript:${SET('raw a')}">raw link</a>`,
  `<object data="${origin}/probe-object"></object><embed src="${origin}/probe-embed">`,
  `<link rel="stylesheet" href="${origin}/probe-link.css"><style>@import '${origin}/probe-style.css';</style>`,
  `<form action="javascript:${SET('form')}"><button>go</button></form>`,
  `<details open ontoggle="${SET('ontoggle')}">x</details>`,
  `[js](javascript:${SET('link')})`,
  `[js case](JaVaScRiPt:${SET('link case')})`,
  `[js entity](&#106;avascript:${SET('link entity')})`,
  `[js hex entity](&#x6A;&#x61;&#x76;&#x61;script:${SET('link hex')})`,
  `[js named entity](javascript&colon;${SET('link colon')})`,
  `[js tab](<java\tscript:${SET('link tab')}>)`,
  `[js newline entity](java&#10;script:${SET('link newline')})`,
  `[js leading space](< javascript:${SET('link space')}>)`,
  `[js control](<\u0001javascript:${SET('link control')}>)`,
  `[vbscript](vbscript:msgbox(1))`,
  `[data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19tYXJrZG93blB3bmVkPSdkYXRhJzwvc2NyaXB0Pg==)`,
  `[data case](DaTa:text/html,<script>${SET('data')}</script>)`,
  `[ref link][evil]\n\n[evil]: javascript:${SET('reference')}`,
  `<javascript:${SET('autolink')}>`,
  `![pixel](${origin}/probe-image.png)`,
  `![js image](javascript:${SET('image')})`,
  `![data image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9InBhcmVudC5fX21hcmtkb3duUHduZWQ9J3N2Zyc+PC9zdmc+)`,
  `![ref image][img]\n\n[img]: ${origin}/probe-ref-image.png`,
  `[![nested image](${origin}/probe-nested.png)](https://example.com)`,
];

const HOSTILE = PAYLOADS.join('\n\n');

let root: Root | undefined;
let host: HTMLElement | undefined;

afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = undefined;
  host = undefined;
  delete window.__markdownPwned;
});

function mount(): Root {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  return root;
}

const probes = () =>
  performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => name.includes('/probe-'));

/** Clicks, hovers and focuses every element, as a curious reader would. */
function poke(element: HTMLElement): void {
  // Keep links from navigating the test page; an inline handler would still run.
  const stop = (event: Event) => event.preventDefault();
  document.addEventListener('click', stop, true);
  try {
    for (const node of element.querySelectorAll<HTMLElement>('*')) {
      node.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      node.focus?.();
      node.click();
    }
  } finally {
    document.removeEventListener('click', stop, true);
  }
}

async function settle(): Promise<void> {
  // Long enough for any request or error handler a payload could trigger to have happened.
  await new Promise((resolve) => setTimeout(resolve, 400));
}

function assertInert(element: HTMLElement): void {
  expect(
    element.querySelectorAll(
      'script, iframe, object, embed, img, svg, style, link, form, details, button, input:not([type="checkbox"])',
    ),
  ).toHaveLength(0);
  for (const node of element.querySelectorAll('*')) {
    for (const attribute of node.attributes) {
      expect(attribute.name, `${node.tagName} ${attribute.name}`).not.toMatch(/^on/i);
      expect(attribute.name, `${node.tagName} ${attribute.name}`).not.toMatch(/^(?:srcdoc|style|action|formaction)$/i);
      // The payloads may show as text; they must never be in an attribute.
      expect(attribute.value, `${node.tagName} ${attribute.name}`).not.toMatch(/script:|data:|__markdownPwned/i);
    }
  }
  for (const link of element.querySelectorAll('a')) {
    const href = link.getAttribute('href');
    if (href !== null) expect(href).toMatch(/^(?:https?|mailto):/i);
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.getAttribute('target')).toBe('_blank');
  }
}

describe('StreamingMarkdown security (Chromium)', () => {
  it('renders hostile markdown inertly: nothing runs, nothing loads', async () => {
    const before = probes().length;
    const view = mount();
    act(() => view.render(<StreamingMarkdown text={HOSTILE} />));
    await settle();
    poke(host!);
    await settle();
    expect(window.__markdownPwned).toBeUndefined();
    expect(probes().slice(before)).toEqual([]);
    assertInert(host!.querySelector('[data-part="markdown"]')!);
    // The blocked images still say what they were.
    expect(host!.textContent).toContain('pixel');
  });

  it('stays inert while the same payloads stream in, in small pieces', async () => {
    const before = probes().length;
    const view = mount();
    for (let end = 0; end <= HOSTILE.length; end += 7) {
      act(() => view.render(<StreamingMarkdown text={HOSTILE.slice(0, end)} streaming />));
    }
    act(() => view.render(<StreamingMarkdown text={HOSTILE} streaming={false} />));
    await settle();
    poke(host!);
    await settle();
    expect(window.__markdownPwned).toBeUndefined();
    expect(probes().slice(before)).toEqual([]);
    assertInert(host!.querySelector('[data-part="markdown"]')!);
  });

  it('control: an image from an allowed origin does load, so the probe would see a leak', async () => {
    const view = mount();
    const url = `${origin}/probe-allowed-${Date.now()}.png`;
    act(() => view.render(<StreamingMarkdown text={`![allowed](${url})`} allowedImageOrigins={[origin]} />));
    await expect.poll(probes, { timeout: 5_000 }).toContain(url);
    expect(host!.querySelector('img')?.getAttribute('src')).toBe(url);
  });
});
