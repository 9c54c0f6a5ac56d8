/**
 * Color scheme (`set-color-scheme`) and brand theme (`set-theme`, the session's `embedTheme`) of the
 * embed page, applied through CSS custom properties on the root element (the stylesheet reads
 * only those). Values the browser would not accept for their property are ignored, so a bad theme
 * can never blank the page.
 *
 * @module
 */
import type { ColorScheme, EmbedTheme } from '../../../core/protocol/embed';

/** The scheme in effect. */
export type AppliedScheme = 'light' | 'dark';

/** Applies and remembers the page's scheme and theme. */
export interface ThemeController {
  readonly scheme: ColorScheme;
  readonly applied: AppliedScheme;
  readonly theme: EmbedTheme;
  setScheme(scheme: ColorScheme): void;
  /** Merges `theme` over the current one (fields left out keep their value) and applies it. */
  setTheme(theme: EmbedTheme): void;
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

function supported(property: string, value: string): boolean {
  return typeof CSS !== 'undefined' && CSS.supports(property, value);
}

/** WCAG relative luminance of a computed `rgb()`/`rgba()` color, or `undefined` when it is not one. */
function luminance(color: string): number | undefined {
  const match = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(color);
  if (!match) return undefined;
  const [r, g, b] = [match[1], match[2], match[3]].map((part) => {
    const channel = Number(part) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Creates the controller and applies `initialTheme` in the light scheme. `onChange` runs after
 * every change, including the operating system switching while the scheme is `auto`.
 */
export function createTheme(initialTheme: EmbedTheme, onChange: () => void): ThemeController {
  const root = document.documentElement;
  const media = window.matchMedia(DARK_QUERY);
  let scheme: ColorScheme = 'light';
  let theme: EmbedTheme = {};

  const appliedOf = (): AppliedScheme => (scheme === 'auto' ? (media.matches ? 'dark' : 'light') : scheme);

  const setVariable = (name: string, property: string, value: unknown): void => {
    if (value === undefined) {
      root.style.removeProperty(name);
      return;
    }
    const text =
      typeof value === 'number' && property === 'border-radius'
        ? `${value}px`
        : typeof value === 'string'
          ? value.trim()
          : '';
    // A value the browser would not accept keeps what was there, rather than blanking the page.
    if (text && supported(property, text)) root.style.setProperty(name, text);
    else console.warn(`[service-emulator] ignored theme value ${JSON.stringify(value)} for ${property}`);
  };

  const applyTheme = (): void => {
    setVariable('--svc-primary', 'color', theme.primaryColor);
    setVariable('--svc-radius', 'border-radius', theme.borderRadius);
    setVariable('--svc-font', 'font-family', theme.font);
    const chat = theme.analyticsChat;
    setVariable('--svc-chat-bg', 'background-color', chat?.backgroundColor);
    setVariable('--svc-chat-input-bg', 'background-color', chat?.chatInput?.backgroundColor);
    setVariable('--svc-chat-input-border', 'border-color', chat?.chatInput?.borderColor);
    // Text on the primary color: black or white, whichever reads better (WCAG contrast).
    const probe = document.createElement('span');
    probe.style.setProperty('color', 'var(--svc-primary)');
    root.append(probe);
    const light = luminance(getComputedStyle(probe).color);
    probe.remove();
    if (light === undefined) root.style.removeProperty('--svc-on-primary');
    else
      root.style.setProperty('--svc-on-primary', (light + 0.05) / 0.05 > 1.05 / (light + 0.05) ? '#000000' : '#ffffff');
  };

  const applyScheme = (): void => {
    const applied = appliedOf();
    root.dataset['colorScheme'] = applied;
    root.dataset['requestedScheme'] = scheme;
  };

  media.addEventListener('change', () => {
    if (scheme !== 'auto') return;
    applyScheme();
    applyTheme();
    onChange();
  });

  theme = { ...initialTheme };
  applyScheme();
  applyTheme();

  return {
    get scheme() {
      return scheme;
    },
    get applied() {
      return appliedOf();
    },
    get theme() {
      return theme;
    },
    setScheme(next) {
      scheme = next;
      applyScheme();
      // The default primary color differs per scheme: recompute the text color on it.
      applyTheme();
      onChange();
    },
    setTheme(next) {
      theme = {
        ...theme,
        ...next,
        analyticsChat: next.analyticsChat ? { ...theme.analyticsChat, ...next.analyticsChat } : theme.analyticsChat,
      };
      applyTheme();
      onChange();
    },
  };
}
