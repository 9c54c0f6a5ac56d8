/**
 * One theme, three surfaces: what `ServiceProvider`'s `theme` becomes for the native chat (its
 * `--service-*` tokens, a prop on the chat winning), and the development warning when its colours
 * fail WCAG AA contrast where the chat uses them.
 */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentChat } from '../../../src/components/chat';
import { ServiceProvider } from '../../../src/react';
import { contrastRatio, parseColor, themeContrastProblems, themeTokens } from '../../../src/react/theme';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('colours and contrast', () => {
  it('reads hex and rgb() colours, nothing else', () => {
    expect(parseColor('#fff')).toEqual([255, 255, 255, 1]);
    expect(parseColor('#7C3AED')).toEqual([124, 58, 237, 1]);
    expect(parseColor('#00000080')?.[3]).toBeCloseTo(0.5, 2);
    expect(parseColor('rgb(10, 20, 30)')).toEqual([10, 20, 30, 1]);
    expect(parseColor('rgba(10 20 30 / 50%)')).toEqual([10, 20, 30, 0.5]);
    for (const other of ['rebeccapurple', 'hsl(0 0% 0%)', 'var(--x)', '#12345', 'rgb(1,2)'])
      expect(parseColor(other)).toBeUndefined();
  });

  it('computes the WCAG contrast ratio', () => {
    expect(contrastRatio(parseColor('#000')!, parseColor('#fff')!)).toBeCloseTo(21, 5);
    expect(contrastRatio(parseColor('#767676')!, parseColor('#fff')!)).toBeCloseTo(4.54, 2);
    expect(contrastRatio(parseColor('#fff')!, parseColor('#fff')!)).toBe(1);
  });
});

describe('theme → tokens', () => {
  it('maps every field to the tokens it drives', () => {
    expect(
      themeTokens({
        primaryColor: '#7c3aed',
        font: 'Georgia, serif',
        borderRadius: 4,
        analyticsChat: {
          backgroundColor: '#fafafa',
          chatInput: { backgroundColor: '#ffffff', borderColor: '#767676' },
        },
      }),
    ).toEqual({
      '--service-color-accent': '#7c3aed',
      '--service-color-accent-hover': 'color-mix(in srgb, #7c3aed 85%, black)',
      '--service-color-focus-ring': '#7c3aed',
      '--service-color-on-accent': '#ffffff',
      '--service-chart-accent': '#7c3aed',
      '--service-font-family': 'Georgia, serif',
      '--service-chart-font': 'Georgia, serif',
      '--service-radius-md': '4px',
      '--service-radius-sm': 'calc(4px / 2)',
      '--service-radius-lg': 'calc(4px * 1.5)',
      '--service-chat-background': '#fafafa',
      '--service-chat-input-background': '#ffffff',
      '--service-chat-input-border': '#767676',
    });
    expect(themeTokens({ borderRadius: '0.5rem' })['--service-radius-md']).toBe('0.5rem');
    expect(themeTokens(undefined)).toEqual({});
  });

  it('text on the accent is white or near-black, whichever reads better', () => {
    expect(themeTokens({ primaryColor: '#1d4ed8' })['--service-color-on-accent']).toBe('#ffffff');
    expect(themeTokens({ primaryColor: '#fde047' })['--service-color-on-accent']).toBe('#1a1d23');
    expect(themeTokens({ primaryColor: 'rebeccapurple' })).not.toHaveProperty('--service-color-on-accent');
  });

  it("AgentChat takes ServiceProvider's theme; its own theme prop wins field by field, and style over both", () => {
    const { container, rerender } = render(
      <ServiceProvider theme={{ primaryColor: '#1d4ed8', font: 'Georgia, serif' }} chat={{ url: '/api/service' }}>
        <AgentChat />
      </ServiceProvider>,
    );
    const chat = () => container.querySelector<HTMLElement>('[data-part="chat"]')!.style;
    expect(chat().getPropertyValue('--service-color-accent')).toBe('#1d4ed8');
    expect(chat().getPropertyValue('--service-font-family')).toBe('Georgia, serif');
    rerender(
      <ServiceProvider theme={{ primaryColor: '#1d4ed8', font: 'Georgia, serif' }} chat={{ url: '/api/service' }}>
        <AgentChat theme={{ primaryColor: '#047857' }} style={{ ['--service-font-family' as string]: 'Menlo' }} />
      </ServiceProvider>,
    );
    expect(chat().getPropertyValue('--service-color-accent')).toBe('#047857');
    expect(chat().getPropertyValue('--service-chart-accent')).toBe('#047857');
    expect(chat().getPropertyValue('--service-font-family')).toBe('Menlo');
    expect(chat().getPropertyValue('--service-chart-font')).toBe('Georgia, serif');
  });
});

describe('WCAG AA warning in development', () => {
  it('names each colour that fails where it is used, with the ratio', () => {
    expect(themeContrastProblems({ primaryColor: '#7dd3fc' }, 'light')).toEqual([
      expect.stringMatching(
        /^primaryColor #7dd3fc as link text on #ffffff \(light scheme\): 1\.\d\d:1, WCAG AA needs 4\.5:1$/,
      ),
    ]);
    expect(themeContrastProblems({ primaryColor: '#777777' }, 'light')).toEqual([
      expect.stringMatching(/^primaryColor #777777 behind #ffffff text \(user messages, buttons\): 4\.\d\d:1/),
      expect.stringMatching(/^primaryColor #777777 as link text/),
    ]);
    expect(
      themeContrastProblems(
        {
          analyticsChat: {
            backgroundColor: '#333333',
            chatInput: { backgroundColor: '#ffffff', borderColor: '#eeeeee' },
          },
        },
        'light',
      ),
    ).toEqual([
      expect.stringMatching(/^analyticsChat\.backgroundColor #333333 behind #1a1d23 text \(light scheme\): 1\.\d\d:1/),
      expect.stringMatching(/^analyticsChat\.backgroundColor #333333 behind #5b6270 text \(light scheme\)/),
      expect.stringMatching(
        /^analyticsChat\.chatInput\.borderColor #eeeeee as the input's border on #ffffff \(light scheme\): .* needs 3:1$/,
      ),
    ]);
  });

  it('passes colours that meet AA in the schemes shown: auto checks light and dark', () => {
    expect(themeContrastProblems({ primaryColor: '#1d4ed8' }, 'light')).toEqual([]);
    // Dark blue text on the dark scheme's surfaces fails there.
    expect(themeContrastProblems({ primaryColor: '#1d4ed8' }, 'auto')).toEqual([
      expect.stringContaining('(dark scheme)'),
    ]);
    expect(themeContrastProblems({ primaryColor: 'rebeccapurple' }, 'light')).toEqual([
      expect.stringContaining('cannot be checked'),
    ]);
  });

  it('ServiceProvider warns once per theme in development, never in production', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const theme = { primaryColor: '#fef08a' };
    const { rerender } = render(<ServiceProvider theme={{ ...theme }} colorScheme="light" />);
    rerender(<ServiceProvider theme={{ ...theme }} colorScheme="light" />);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/WCAG AA[\s\S]*primaryColor #fef08a/);
    cleanup();
    warn.mockClear();
    vi.stubEnv('NODE_ENV', 'production');
    render(<ServiceProvider theme={{ primaryColor: '#fef08b' }} colorScheme="light" />);
    expect(warn).not.toHaveBeenCalled();
  });
});
