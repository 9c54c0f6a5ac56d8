import type { Meta, StoryObj } from '@storybook/react-vite';
import type { CSSProperties } from 'react';
import { expect } from 'storybook/test';
import stylesheet from '../src/styles.css?raw';

/** Every token `styles.css` declares, in the order it declares them. */
const declarations = stylesheet.replace(/\/\*[\s\S]*?\*\//g, '');
const TOKENS = [...new Set(declarations.match(/--service-[a-z0-9-]+(?=\s*:)/g) ?? [])];
/** Tokens unset by default (`initial`) that a theme or the partner sets: the chat's surfaces, the charts' brand. */
const UNSET = new Set(declarations.match(/--service-[a-z0-9-]+(?=\s*:\s*initial\s*;)/g) ?? []);
const COLOR_TOKENS = TOKENS.filter((token) => token.startsWith('--service-color-'));
const OTHER_TOKENS = TOKENS.filter((token) => !token.startsWith('--service-color-'));

/**
 * Text and background pairs the components use. Rendering them lets axe check their contrast in
 * both themes: a token change that breaks WCAG AA fails `npm test`.
 */
const PAIRS: readonly { label: string; text: string; background: string }[] = [
  { label: 'Text on background', text: 'text', background: 'background' },
  { label: 'Muted text on background', text: 'text-muted', background: 'background' },
  { label: 'Text on surface', text: 'text', background: 'surface' },
  { label: 'Muted text on surface', text: 'text-muted', background: 'surface' },
  { label: 'Text on raised surface', text: 'text', background: 'surface-raised' },
  { label: 'Text on code background', text: 'text', background: 'code-background' },
  { label: 'Accent (links) on background', text: 'accent', background: 'background' },
  { label: 'Accent (links) on surface', text: 'accent', background: 'surface' },
  { label: 'On-accent on accent (buttons)', text: 'on-accent', background: 'accent' },
  { label: 'On-accent on accent hover', text: 'on-accent', background: 'accent-hover' },
  { label: 'Danger on background', text: 'danger', background: 'background' },
  { label: 'Danger on danger surface', text: 'danger', background: 'danger-surface' },
  { label: 'Success on background', text: 'success', background: 'background' },
  { label: 'Warning on background', text: 'warning', background: 'background' },
];

const color = (name: string) => `var(--service-color-${name})`;

const cell: CSSProperties = {
  padding: 'var(--service-space-2) var(--service-space-3)',
  borderBottom: '1px solid var(--service-color-border)',
  textAlign: 'left',
  verticalAlign: 'middle',
};

/** One theme's tokens, resolved where they are used: inside `data-service-theme`. */
function ThemePanel({ theme }: { theme: 'light' | 'dark' }) {
  const id = `theme-${theme}`;
  return (
    <section
      aria-labelledby={id}
      data-service-theme={theme}
      data-testid={`panel-${theme}`}
      style={{
        flex: '1 1 420px',
        padding: 'var(--service-space-4)',
        borderRadius: 'var(--service-radius-lg)',
        border: '1px solid var(--service-color-border)',
        background: color('background'),
        color: color('text'),
        fontFamily: 'var(--service-font-family)',
        fontSize: 'var(--service-font-size-sm)',
      }}
    >
      <h2 id={id} style={{ fontSize: 'var(--service-font-size-lg)', margin: 0 }}>
        {theme === 'light' ? 'Light' : 'Dark'}
      </h2>

      <h3 style={{ fontSize: 'var(--service-font-size-md)' }}>Pairs</h3>
      <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 'var(--service-space-2)' }}>
        {PAIRS.map((pair) => (
          <li
            key={pair.label}
            style={{
              padding: 'var(--service-space-2) var(--service-space-3)',
              borderRadius: 'var(--service-radius-md)',
              background: color(pair.background),
              color: color(pair.text),
            }}
          >
            {pair.label}
          </li>
        ))}
      </ul>

      <table style={{ borderCollapse: 'collapse', width: '100%', marginTop: 'var(--service-space-4)' }}>
        <caption style={{ textAlign: 'left', fontWeight: 600, paddingBottom: 'var(--service-space-2)' }}>
          Colour tokens ({theme})
        </caption>
        <thead>
          <tr>
            <th scope="col" style={cell}>
              Swatch
            </th>
            <th scope="col" style={cell}>
              Token
            </th>
          </tr>
        </thead>
        <tbody>
          {COLOR_TOKENS.map((token) => (
            <tr key={token} data-token={token}>
              <td style={cell}>
                <span
                  aria-hidden="true"
                  style={{
                    display: 'inline-block',
                    width: 32,
                    height: 20,
                    borderRadius: 'var(--service-radius-sm)',
                    border: '1px solid var(--service-color-border)',
                    background: `var(${token})`,
                  }}
                />
              </td>
              <td style={cell}>
                <code style={{ fontFamily: 'var(--service-font-family-mono)' }}>{token}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The design tokens of `@service/react/styles.css`, light and dark side by side. */
function Tokens() {
  return (
    <main>
      <h1 style={{ fontSize: '1.5rem', marginTop: 0 }}>Design tokens</h1>
      <p>
        Import <code>@service/react/styles.css</code> once. Set <code>data-service-theme</code> to <code>light</code> or{' '}
        <code>dark</code> on any element to force a theme for its subtree; without it the system preference decides.
        Override any token to brand a subtree.
      </p>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--service-space-4)' }}>
        <ThemePanel theme="light" />
        <ThemePanel theme="dark" />
      </div>
      <table style={{ borderCollapse: 'collapse', marginTop: 'var(--service-space-6)' }}>
        <caption style={{ textAlign: 'left', fontWeight: 600, paddingBottom: 'var(--service-space-2)' }}>
          Other tokens (both themes)
        </caption>
        <thead>
          <tr>
            <th scope="col" style={cell}>
              Token
            </th>
          </tr>
        </thead>
        <tbody>
          {OTHER_TOKENS.map((token) => (
            <tr key={token} data-token={token}>
              <td style={cell}>
                <code style={{ fontFamily: 'var(--service-font-family-mono)' }}>{token}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

const meta = {
  title: 'Foundations/Theme',
  component: Tokens,
} satisfies Meta<typeof Tokens>;

export default meta;

type Story = StoryObj<typeof meta>;

export const DesignTokens: Story = {
  play: async ({ canvasElement, step }) => {
    const panel = (theme: string) => {
      const element = canvasElement.querySelector<HTMLElement>(`[data-testid="panel-${theme}"]`);
      if (!element) throw new Error(`panel-${theme} is not rendered`);
      return getComputedStyle(element);
    };
    const light = panel('light');
    const dark = panel('dark');

    await step('the tokens a theme sets are unset until it does', async () => {
      for (const token of UNSET) await expect(light.getPropertyValue(token).trim(), token).toBe('');
    });

    await step('the stylesheet declares colour and layout tokens', async () => {
      await expect(COLOR_TOKENS.length).toBeGreaterThan(10);
      await expect(OTHER_TOKENS.length).toBeGreaterThan(5);
    });

    await step('every token resolves in both themes, but those a theme sets', async () => {
      await expect(UNSET.size).toBe(5);
      for (const token of TOKENS.filter((name) => !UNSET.has(name))) {
        await expect(light.getPropertyValue(token).trim(), `${token} (light)`).not.toBe('');
        await expect(dark.getPropertyValue(token).trim(), `${token} (dark)`).not.toBe('');
      }
    });

    await step('dark overrides every colour token', async () => {
      for (const token of COLOR_TOKENS) {
        await expect(dark.getPropertyValue(token).trim(), token).not.toBe(light.getPropertyValue(token).trim());
      }
      await expect(light.colorScheme).toBe('light');
      await expect(dark.colorScheme).toBe('dark');
    });
  },
};
