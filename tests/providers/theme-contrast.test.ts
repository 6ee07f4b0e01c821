import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import type { ThemeTokens } from '../../src/contract';
import { TEXT_CONTRAST, contrastRatio, readable, themeConfig } from '../../src/theme';

// The demo's themes (server/seed/demo.ts) and no theme at all.
const SITE_THEMES: Array<[string, ThemeTokens | null]> = [
  ['default', null],
  ['classic', { name: 'Classic', slug: 'classic', colorPrimary: '#1677ff', colorBgLayout: '#f5f5f5', borderRadius: 6, algorithm: 'default' }],
  ['midnight (dark)', { name: 'Midnight', slug: 'midnight', colorPrimary: '#722ed1', borderRadius: 8, algorithm: 'dark' }],
  ['compact green', { name: 'Compact Green', slug: 'compact-green', colorPrimary: '#389e0d', colorBgLayout: '#f6ffed', borderRadius: 4, algorithm: 'compact' }],
  ['dark with a pale accent', { name: 'Pale', slug: 'pale', colorPrimary: '#ffd666', algorithm: 'dark' }],
];

describe('contrast arithmetic', () => {
  it('computes WCAG ratios, translucent text included', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 1);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#faad14', '#ffffff')).toBeCloseTo(1.9, 1); // antd's amber: the 1.9:1
    expect(contrastRatio('rgba(0,0,0,0.45)', '#ffffff')).toBeCloseTo(3.35, 1);
  });

  it('darkens on light backgrounds and lightens on dark ones, only as far as needed', () => {
    const onWhite = readable('#faad14', ['#ffffff']);
    expect(contrastRatio(onWhite, '#ffffff')).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrastRatio(onWhite, '#ffffff')).toBeLessThan(5.2);
    const onBlack = readable('#642ab5', ['#141414']);
    expect(contrastRatio(onBlack, '#141414')).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(readable('#000000', ['#ffffff'])).toBe('#000000');
  });
});

// Each in its own scheme, and in the other one (a user's light or dark choice over the site theme).
const THEMES: Array<[string, ThemeTokens | null, boolean]> = SITE_THEMES.flatMap(([name, tokens]): Array<[string, ThemeTokens | null, boolean]> => {
  const own = tokens?.algorithm === 'dark';
  return [
    [name, tokens, own],
    [`${name} in the user's ${own ? 'light' : 'dark'} scheme`, tokens, !own],
  ];
});

describe.each(THEMES)('theme %s: every text colour reads at 4.5:1', (_name, tokens, dark) => {
  const config = themeConfig(tokens, dark);
  const t = theme.getDesignToken(config) as unknown as Record<string, string>;
  const surfaces = { container: t.colorBgContainer, layout: t.colorBgLayout, elevated: t.colorBgElevated };
  const expectReadable = (fg: string, bg: string, what: string) => expect(contrastRatio(fg, bg), `${what}: ${fg} on ${bg}`).toBeGreaterThanOrEqual(TEXT_CONTRAST);

  it('keeps the theme dark or light as declared', () => {
    const darkBg = contrastRatio(t.colorBgContainer, '#000000') < contrastRatio(t.colorBgContainer, '#ffffff');
    expect(darkBg).toBe(dark);
  });

  it('white on the primary colour (buttons, selected menu item, current page)', () => {
    expectReadable(t.colorTextLightSolid, t.colorPrimary, 'primary fill');
  });

  it('white on a danger button, at rest, hovered and pressed (Delete, Recover Credits)', () => {
    const button = { ...t, ...config.components?.Button } as Record<string, string>;
    for (const state of ['colorError', 'colorErrorHover', 'colorErrorActive']) expectReadable(t.colorTextLightSolid, button[state], `danger fill (${state})`);
  });

  it('links and secondary text on every surface', () => {
    for (const [where, bg] of Object.entries(surfaces)) {
      expectReadable(t.colorLink, bg, `link on ${where}`);
      expectReadable(t.colorTextDescription, bg, `description on ${where}`);
      expectReadable(t.colorTextTertiary, bg, `tertiary on ${where}`);
      expectReadable(t.colorTextPlaceholder, bg, `placeholder on ${where}`);
      expectReadable(t.colorTextSecondary, bg, `secondary on ${where}`);
    }
    for (const status of ['Success', 'Warning', 'Error', 'Info']) expectReadable(t.colorLink, t[`color${status}Bg`], `link in a ${status.toLowerCase()} alert`);
  });

  it('the expiry colours (expired, 7-day warning) and success, on the page and on their own tints', () => {
    for (const status of ['Error', 'Warning', 'Success']) {
      for (const [where, bg] of Object.entries({ ...surfaces, tint: t[`color${status}Bg`] })) expectReadable(t[`color${status}Text`], bg, `${status} text on ${where}`);
    }
    expectReadable(t.colorError, t.colorBgContainer, 'form error message');
  });

  it('preset tag colours (status and type tags) on their tints', () => {
    for (const color of ['green', 'red', 'orange', 'gold', 'blue', 'purple', 'cyan', 'volcano', 'lime', 'magenta', 'geekblue']) {
      expectReadable(t[`${color}7`], t[`${color}1`], `${color} tag`);
    }
  });

  it('keeps the expiry colours in their hue: red for expired, amber for the warning', () => {
    const hue = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
      const max = Math.max(r, g, b);
      const d = max - Math.min(r, g, b);
      const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
      return (h * 60 + 360) % 360;
    };
    expect(hue(t.colorErrorText) < 15 || hue(t.colorErrorText) > 345).toBe(true);
    expect(hue(t.colorWarningText)).toBeGreaterThan(25);
    expect(hue(t.colorWarningText)).toBeLessThan(50);
  });
});
