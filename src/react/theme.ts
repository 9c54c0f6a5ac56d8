/**
 * One theme, three surfaces: `ServiceProvider`'s `theme` (the embed theme the service's pages take
 * through `set-theme`) becomes the native chat's `--service-*` tokens and its charts' tokens, so a
 * partner brands everything once. The mapping (docs/theming.md has the table):
 *
 * | theme field | tokens |
 * |---|---|
 * | `primaryColor` | `--service-color-accent`, `--service-color-accent-hover` (15 % darker), `--service-color-focus-ring`, `--service-color-on-accent` (white or near-black, whichever contrasts more), `--service-chart-accent` |
 * | `font` | `--service-font-family`, `--service-chart-font` |
 * | `borderRadius` | `--service-radius-md`, `--service-radius-sm` (half), `--service-radius-lg` (one and a half) |
 * | `analyticsChat.backgroundColor` | `--service-chat-background` |
 * | `analyticsChat.chatInput.backgroundColor` | `--service-chat-input-background` |
 * | `analyticsChat.chatInput.borderColor` | `--service-chat-input-border` |
 *
 * In development, {@link warnThemeContrast} checks the colours against WCAG AA where they are used;
 * `useThemeTokens` (use-theme-tokens.ts) gives the chat its tokens.
 *
 * @module
 */
import type { ColorScheme, EmbedTheme } from '../core/protocol/embed';

/** `--service-*` custom properties and their values, ready for a `style` prop. */
export type ThemeTokens = { [token: `--service-${string}`]: string };

/** An sRGB colour, channels 0 to 255, alpha 0 to 1. */
export type Rgba = [number, number, number, number];

/**
 * Reads a colour written as hex (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`) or `rgb()`/`rgba()` with
 * numbers or percentages; `undefined` for anything else (a name, `hsl()`, a variable), which is
 * used as written but cannot be checked. Pure, so the server and the browser agree.
 */
export function parseColor(value: string): Rgba | undefined {
  const text = value.trim().toLowerCase();
  const hex = /^#([\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})$/.exec(text)?.[1];
  if (hex) {
    const digits = hex.length <= 4 ? [...hex].map((digit) => digit + digit) : hex.match(/../g)!;
    const [r, g, b, a = 'ff'] = digits.map((pair) => pair);
    return [parseInt(r!, 16), parseInt(g!, 16), parseInt(b!, 16), parseInt(a, 16) / 255];
  }
  const rgb = /^rgba?\(([^)]+)\)$/.exec(text)?.[1];
  if (!rgb) return undefined;
  const parts = rgb.split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3 || parts.length > 4) return undefined;
  const channel = (part: string, scale: number) =>
    part.endsWith('%') ? (parseFloat(part) / 100) * scale : parseFloat(part);
  const color = parts.map((part, index) => channel(part, index < 3 ? 255 : 1)) as number[];
  if (color.some((number) => !Number.isFinite(number))) return undefined;
  return [color[0]!, color[1]!, color[2]!, color[3] ?? 1];
}

/** WCAG 2 relative luminance of an opaque colour. */
function luminance([r, g, b]: Rgba): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** `top` composited over the opaque `bottom` (a translucent colour as it shows). */
function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3];
  return [0, 1, 2].map((index) => top[index]! * a + bottom[index]! * (1 - a)).concat(1) as Rgba;
}

/** WCAG 2 contrast ratio of `foreground` on the opaque `background`, 1 to 21. */
export function contrastRatio(foreground: Rgba, background: Rgba): number {
  const [high, low] = [luminance(over(foreground, background)), luminance(background)].sort((a, b) => b - a);
  return (high! + 0.05) / (low! + 0.05);
}

const WHITE = '#ffffff';
const INK = '#1a1d23';

/** The text colour that reads best on `accent`: white, or the stylesheet's near-black. */
function onAccent(accent: Rgba): string {
  const solid = over(accent, [255, 255, 255, 1]);
  return contrastRatio(parseColor(WHITE)!, solid) >= contrastRatio(parseColor(INK)!, solid) ? WHITE : INK;
}

const length = (value: string | number) => (typeof value === 'number' ? `${value}px` : value);

/** The `--service-*` tokens a theme sets (see the module's table); fields it does not set, none. */
export function themeTokens(theme: EmbedTheme | undefined): ThemeTokens {
  const tokens: ThemeTokens = {};
  if (!theme) return tokens;
  const { primaryColor, font, borderRadius, analyticsChat } = theme;
  if (typeof primaryColor === 'string' && primaryColor.trim()) {
    tokens['--service-color-accent'] = primaryColor;
    tokens['--service-color-accent-hover'] = `color-mix(in srgb, ${primaryColor} 85%, black)`;
    tokens['--service-color-focus-ring'] = primaryColor;
    tokens['--service-chart-accent'] = primaryColor;
    const parsed = parseColor(primaryColor);
    if (parsed) tokens['--service-color-on-accent'] = onAccent(parsed);
  }
  if (typeof font === 'string' && font.trim()) {
    tokens['--service-font-family'] = font;
    tokens['--service-chart-font'] = font;
  }
  if (typeof borderRadius === 'number' || (typeof borderRadius === 'string' && borderRadius.trim())) {
    const radius = length(borderRadius);
    tokens['--service-radius-md'] = radius;
    tokens['--service-radius-sm'] = `calc(${radius} / 2)`;
    tokens['--service-radius-lg'] = `calc(${radius} * 1.5)`;
  }
  const chat = analyticsChat;
  if (typeof chat?.backgroundColor === 'string') tokens['--service-chat-background'] = chat.backgroundColor;
  const input = chat?.chatInput;
  if (typeof input?.backgroundColor === 'string') tokens['--service-chat-input-background'] = input.backgroundColor;
  if (typeof input?.borderColor === 'string') tokens['--service-chat-input-border'] = input.borderColor;
  return tokens;
}

/** The stylesheet's defaults the theme's colours meet, per scheme (src/styles.css). */
const DEFAULTS = {
  light: { background: '#ffffff', raised: '#ffffff', text: '#1a1d23', muted: '#5b6270' },
  dark: { background: '#111318', raised: '#22262f', text: '#eceef2', muted: '#a3a9b5' },
} as const;

/** WCAG AA for text (1.4.3). */
const WCAG_AA_TEXT = 4.5;
/** WCAG AA for the boundaries of user-interface components (1.4.11). */
const WCAG_AA_NON_TEXT = 3;

/**
 * Where each theme colour is used, and how well it must contrast there: the pairs a partner's
 * colours fail, as sentences, for the schemes `colorScheme` shows (`auto` and none: both, since
 * the viewer's system decides). Colours it cannot read (names, `hsl()`) are reported as unchecked.
 */
export function themeContrastProblems(theme: EmbedTheme, colorScheme?: ColorScheme): string[] {
  const problems: string[] = [];
  const tokens = themeTokens(theme);
  const schemes = colorScheme === 'light' || colorScheme === 'dark' ? [colorScheme] : (['light', 'dark'] as const);
  /** `field` (the theme's colour `value`) fails when `foreground` on `background` is under `needed`. */
  const check = (
    field: string,
    value: string,
    foreground: string,
    background: string,
    where: string,
    needed: number,
    scheme?: string,
  ) => {
    const front = parseColor(foreground);
    const back = parseColor(background);
    if (!front || !back) {
      problems.push(`${field} ${JSON.stringify(value)} cannot be checked: write it as #rrggbb or rgb()`);
      return;
    }
    const ratio = contrastRatio(front, over(back, [255, 255, 255, 1]));
    if (ratio < needed)
      problems.push(
        `${field} ${value} ${where}${scheme ? ` (${scheme} scheme)` : ''}: ${ratio.toFixed(2)}:1, WCAG AA needs ${needed}:1`,
      );
  };
  const accent = tokens['--service-color-accent'];
  if (accent) {
    const text = tokens['--service-color-on-accent'] ?? WHITE;
    check('primaryColor', accent, text, accent, `behind ${text} text (user messages, buttons)`, WCAG_AA_TEXT);
  }
  const chatBackground = tokens['--service-chat-background'];
  const inputBackground = tokens['--service-chat-input-background'];
  const inputBorder = tokens['--service-chat-input-border'];
  for (const scheme of schemes) {
    const base = DEFAULTS[scheme];
    const background = chatBackground ?? base.raised;
    if (accent)
      check('primaryColor', accent, accent, background, `as link text on ${background}`, WCAG_AA_TEXT, scheme);
    if (chatBackground) {
      for (const text of [base.text, base.muted])
        check(
          'analyticsChat.backgroundColor',
          chatBackground,
          text,
          chatBackground,
          `behind ${text} text`,
          WCAG_AA_TEXT,
          scheme,
        );
    }
    if (inputBackground)
      check(
        'analyticsChat.chatInput.backgroundColor',
        inputBackground,
        base.text,
        inputBackground,
        `behind the typed question (${base.text})`,
        WCAG_AA_TEXT,
        scheme,
      );
    if (inputBorder) {
      const behind = inputBackground ?? chatBackground ?? base.background;
      check(
        'analyticsChat.chatInput.borderColor',
        inputBorder,
        inputBorder,
        behind,
        `as the input's border on ${behind}`,
        WCAG_AA_NON_TEXT,
        scheme,
      );
    }
  }
  return [...new Set(problems)];
}

/** Themes warned about already, so a theme written inline warns once. */
const warned = new Set<string>();

/**
 * Development only: warns once per theme when its colours fail WCAG AA contrast on the tokens
 * they become (see {@link themeContrastProblems}). Does nothing in production builds.
 */
export function warnThemeContrast(theme: EmbedTheme | undefined, colorScheme?: ColorScheme): void {
  // The whole body in the condition, so production bundles drop it and the checks it calls.
  if (process.env.NODE_ENV !== 'production' && theme) {
    const key = JSON.stringify([theme, colorScheme]);
    if (warned.has(key)) return;
    warned.add(key);
    const problems = themeContrastProblems(theme, colorScheme);
    if (problems.length)
      console.warn(
        `[@service/react] theme colours fail WCAG AA contrast where the chat uses them:\n- ${problems.join('\n- ')}\n` +
          'Pick colours that pass, or set the --service-* tokens yourself (docs/theming.md).',
      );
  }
}
