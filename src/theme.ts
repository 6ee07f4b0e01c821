import { type ThemeConfig, theme, version } from 'antd';
import type { AliasToken } from 'antd/es/theme/interface';
import type { ThemeTokens } from './contract';
import { STORAGE_KEYS } from './contract/constants';

/**
 * How antd keys its component styles in the panel: token values as CSS variables under one fixed
 * key, and no hash class. Keyed so, a component's style is the same for every theme, which lets the
 * build render them once into the panel's CSS (scripts/antdStyles.ts) instead of each browser
 * generating them as components first render; only the variables follow the active theme.
 */
const ANTD_STYLE_SHAPE = { cssVar: { key: 'panel' }, hashed: false } as const;

/** WCAG AA for normal text: every colour that carries text reads at this ratio or better. */
export const TEXT_CONTRAST = 4.5;

type Rgba = [number, number, number, number];

function parseColor(color: string): Rgba {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color.trim());
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
    return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16), h.length === 8 ? parseInt(h.slice(6, 8), 16) / 255 : 1];
  }
  const rgb = /^rgba?\(([^)]+)\)$/i.exec(color.trim());
  if (rgb) {
    const [r, g, b, a = 1] = rgb[1].split(',').map((p) => Number.parseFloat(p));
    return [r, g, b, a];
  }
  throw new Error(`Unsupported colour: ${color}`);
}

const toHex = ([r, g, b]: Rgba) =>
  `#${[r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** A colour with transparency as it shows over an opaque background. */
const over = (fg: Rgba, bg: Rgba): Rgba => [0, 1, 2].map((i) => fg[i] * fg[3] + bg[i] * (1 - fg[3])).concat(1) as Rgba;

function luminance([r, g, b]: Rgba): number {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio of a text colour (transparency allowed) on a background (drawn over white when transparent). */
export function contrastRatio(foreground: string, background: string): number {
  const bg = over(parseColor(background), [255, 255, 255, 1]);
  const fg = over(parseColor(foreground), bg);
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The colour, moved toward black (on light backgrounds) or white (on dark ones) just far enough to
 * read at `ratio` on every background: the same hue, darker or lighter.
 */
export function readable(color: string, backgrounds: readonly string[], ratio: number = TEXT_CONTRAST): string {
  if (backgrounds.every((bg) => contrastRatio(color, bg) >= ratio)) return color;
  const lightBackgrounds = backgrounds.every((bg) => luminance(over(parseColor(bg), [255, 255, 255, 1])) > 0.18);
  const target: Rgba = lightBackgrounds ? [0, 0, 0, 1] : [255, 255, 255, 1];
  const start = over(parseColor(color), over(parseColor(backgrounds[0]), [255, 255, 255, 1]));
  for (let t = 0.02; t < 1; t += 0.02) {
    const candidate = toHex([0, 1, 2].map((i) => start[i] + (target[i] - start[i]) * t).concat(1) as Rgba);
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= ratio)) return candidate;
  }
  return toHex(target);
}

/** A translucent text colour (antd's secondary greys) made opaque enough to read on every background. */
function readableAlpha(color: string, backgrounds: readonly string[], ratio: number = TEXT_CONTRAST): string {
  const [r, g, b, a] = parseColor(color);
  for (let alpha = a; alpha <= 1.0001; alpha += 0.01) {
    const candidate = `rgba(${r},${g},${b},${alpha.toFixed(2)})`;
    if (backgrounds.every((bg) => contrastRatio(candidate, bg) >= ratio)) return candidate;
  }
  return `rgb(${r},${g},${b})`;
}

const PRESET_COLORS = ['blue', 'purple', 'cyan', 'green', 'magenta', 'pink', 'red', 'orange', 'yellow', 'volcano', 'geekblue', 'lime', 'gold'] as const;
const STATUSES = ['Success', 'Warning', 'Error', 'Info'] as const;

const mixHex = (color: string, target: Rgba, t: number) => {
  const start = parseColor(color);
  return toHex([0, 1, 2].map((i) => start[i] + (target[i] - start[i]) * t).concat(1) as Rgba);
};

/** The page colour antd's dark algorithm blends its palettes with. */
const DARK_PALETTE_BG = '#141414';

/**
 * The colour antd derives from a seed colour for its main token: the seed itself in light themes; in
 * the dark one, 85% of the seed over the dark page (its palette's sixth step).
 */
const derivedFrom = (seed: string, dark: boolean) => (dark ? mixHex(DARK_PALETTE_BG, parseColor(seed), 0.85) : seed);

/** A seed colour moved toward `target` just far enough that what antd derives from it passes `ok`. */
function seedFor(base: string, dark: boolean, target: Rgba, ok: (derived: string) => boolean): string {
  for (let step = 0; step < 1; step += 0.02) {
    const candidate = step === 0 ? base : mixHex(base, target, step);
    if (ok(derivedFrom(candidate, dark))) return candidate;
  }
  return toHex(target);
}

const BLACK: Rgba = [0, 0, 0, 1];
const WHITE: Rgba = [255, 255, 255, 1];
const designToken = (algorithm: ThemeConfig['algorithm'], seed: Partial<AliasToken>) =>
  theme.getDesignToken({ algorithm, token: seed }) as unknown as Record<string, string>;

/**
 * Tokens that make antd's text colours readable (WCAG AA) on the theme's surfaces: the primary colour
 * under white button text, links, form error messages, the secondary greys, the status text colours
 * (on the page and on their own tints), and the preset tag colours on their tints. Light themes darken
 * them; the dark theme lightens what is text and keeps fills dark enough for white text.
 */
export function readableTokens(seed: Partial<AliasToken>, algorithm: ThemeConfig['algorithm'], dark: boolean): Pick<ThemeConfig, 'token' | 'components'> {
  const base = designToken(algorithm, seed);
  // Table headers and striped rows are a translucent fill over the container.
  const surfaces = [base.colorBgContainer, base.colorBgLayout, base.colorBgElevated, toHex(over(parseColor(base.colorFillAlter), parseColor(base.colorBgContainer)))];
  const readsOn = (backgrounds: readonly string[]) => (color: string) => backgrounds.every((bg) => contrastRatio(color, bg) >= TEXT_CONTRAST);
  const textward = dark ? WHITE : BLACK;

  // Seeds, from which antd derives whole palettes. The primary colour lies under white text (primary
  // buttons, the selected menu item, the current page); links are text (the header's credits); form
  // error messages are written in the error colour, which in light themes also fills danger buttons.
  const seeds: Record<string, string> = {
    colorPrimary: seedFor(seed.colorPrimary ?? base.colorPrimary, dark, BLACK, readsOn([base.colorTextLightSolid])),
    colorError: seedFor(seed.colorError ?? base.colorError, dark, textward, readsOn(dark ? surfaces : [...surfaces, base.colorTextLightSolid])),
  };
  // Links also sit in alerts (the announcements banner), on the status tints.
  const tints = STATUSES.map((status) => base[`color${status}Bg`]);
  seeds.colorLink = seedFor(dark ? base.colorPrimaryText : seeds.colorPrimary, dark, textward, readsOn([...surfaces, ...tints]));

  // Map tokens, from the palettes of the final seeds.
  const t = designToken(algorithm, { ...seed, ...seeds });
  const token: Record<string, string> = { ...seeds };
  const primaryText = readable(dark ? t.colorPrimaryText : t.colorPrimary, surfaces);
  token.colorPrimaryText = token.colorPrimaryTextHover = token.colorPrimaryTextActive = primaryText;
  token.colorTextTertiary = readableAlpha(t.colorTextTertiary, surfaces);
  token.colorTextLabel = readableAlpha(t.colorTextLabel, surfaces);
  // Placeholders are text too (an empty select's hint is all it shows).
  token.colorTextPlaceholder = readableAlpha(t.colorTextPlaceholder, surfaces);
  for (const status of STATUSES) {
    const text = readable(t[`color${status}Text`], [...surfaces, t[`color${status}Bg`]]);
    token[`color${status}Text`] = token[`color${status}TextHover`] = token[`color${status}TextActive`] = text;
  }
  // Preset tags write colour 7 on colour 1.
  // antd names each palette step twice (`green7`, `green-7`), and both become the one CSS variable
  // --ant-green-7: both are set.
  for (const color of PRESET_COLORS) token[`${color}7`] = token[`${color}-7`] = readable(t[`${color}7`], [t[`${color}1`], ...surfaces]);

  // Danger buttons write white on the error colour, hovered and pressed too (antd lightens it on hover).
  // In the dark theme the error colour became light text: their fill is kept dark enough apart.
  const onWhite = [base.colorTextLightSolid];
  const components: ThemeConfig['components'] = {
    Tabs: { itemSelectedColor: primaryText, itemActiveColor: primaryText, itemHoverColor: primaryText },
    Button: dark
      ? {
          colorError: readable(base.colorError, onWhite),
          colorErrorHover: readable(base.colorErrorHover, onWhite),
          colorErrorActive: readable(base.colorErrorActive, onWhite),
        }
      : { colorErrorHover: readable(t.colorErrorHover, onWhite), colorErrorActive: readable(t.colorErrorActive, onWhite) },
  };
  return { token: token as Partial<AliasToken>, components };
}

const derived = new Map<string, ThemeConfig>();

/**
 * The active theme (admin's Themes screen) as Ant Design theme tokens, in the user's light or dark
 * scheme (the theme's own by default), with readable text. Answers are kept (a user switching back
 * and forth, and the entry module asks as soon as GET /config answers while the page's code may still
 * be arriving, so the first render then finds it).
 */
export function themeConfig(tokens: ThemeTokens | null, dark: boolean = isDarkTheme(tokens)): ThemeConfig {
  const key = derivationKey(tokens, dark);
  let config = derived.get(key);
  if (!config) {
    const built = BUILT_DERIVATIONS[key];
    config = built
      ? { ...ANTD_STYLE_SHAPE, algorithm: algorithmOf(tokens, dark), ...built }
      : (storedThemeConfig(tokens, dark, key) ?? deriveThemeConfig(tokens, dark, key));
    derived.set(key, config);
  }
  return config;
}

type Derived = Pick<ThemeConfig, 'token' | 'components'>;

/** What a derivation depends on: the theme's tokens (not its name) and the scheme. */
export const derivationKey = (tokens: Partial<ThemeTokens> | null, dark: boolean) =>
  JSON.stringify([tokens?.colorPrimary ?? null, tokens?.colorBgLayout ?? null, tokens?.borderRadius ?? null, tokens?.algorithm ?? null, dark]);

/** The derivations the build made (vite.config.ts), by derivationKey; none outside a build. */
declare const __BUILT_THEME_DERIVATIONS__: Record<string, Derived> | undefined;
const BUILT_DERIVATIONS: Record<string, Derived> = typeof __BUILT_THEME_DERIVATIONS__ === 'undefined' ? {} : __BUILT_THEME_DERIVATIONS__;

/**
 * The derivations of the default theme and of the shipped presets, each in both schemes, as the
 * build hands them to the panel: it opens in them without deriving.
 */
export function builtThemeDerivations(presets: ReadonlyArray<Partial<ThemeTokens>>): Record<string, Derived> {
  const out: Record<string, Derived> = {};
  for (const tokens of [null, ...presets]) {
    for (const dark of [false, true]) {
      const { token, components } = deriveThemeConfig(tokens as ThemeTokens | null, dark, derivationKey(tokens, dark), false);
      out[derivationKey(tokens, dark)] = { token, components };
    }
  }
  return out;
}

/**
 * The last derivation, kept in the browser by theme and antd version: deriving takes a frame or two
 * of every load's first render, and the theme rarely changes between visits.
 */
function storedThemeConfig(tokens: ThemeTokens | null, dark: boolean, key: string): ThemeConfig | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEYS.themeConfig) ?? 'null') as { key: string; derived: Derived } | null;
    if (stored?.key === `${version} ${key}`) return { ...ANTD_STYLE_SHAPE, algorithm: algorithmOf(tokens, dark), ...stored.derived };
  } catch {
    // Unreadable (storage off, or an older shape): derived again.
  }
  return undefined;
}

function algorithmOf(tokens: ThemeTokens | null, dark: boolean): ThemeConfig['algorithm'] {
  const compact = tokens?.algorithm === 'compact';
  return dark ? (compact ? [theme.darkAlgorithm, theme.compactAlgorithm] : theme.darkAlgorithm) : compact ? theme.compactAlgorithm : theme.defaultAlgorithm;
}

function deriveThemeConfig(tokens: ThemeTokens | null, dark: boolean, key: string, keep = true): ThemeConfig {
  const algorithm = algorithmOf(tokens, dark);
  // The theme's page colour was chosen for its own scheme: in the other one it would be a light page
  // under dark cards (or the reverse), so the scheme's own stands in.
  const ownScheme = dark === isDarkTheme(tokens);
  // Every theme sets the same tokens in the same order (antd's defaults where the theme is silent):
  // antd keys its component styles by the token set, so all themes share the styles the build renders.
  const defaults = theme.getDesignToken({ algorithm });
  const seed: Partial<AliasToken> = {
    colorPrimary: tokens?.colorPrimary || defaults.colorPrimary,
    colorBgLayout: (ownScheme && tokens?.colorBgLayout) || defaults.colorBgLayout,
    borderRadius: tokens?.borderRadius ?? defaults.borderRadius,
  };
  const contrast = readableTokens(seed, algorithm, dark);
  const derived: Derived = { token: { ...seed, ...contrast.token }, components: contrast.components };
  try {
    if (keep) localStorage.setItem(STORAGE_KEYS.themeConfig, JSON.stringify({ key: `${version} ${key}`, derived }));
  } catch {
    // Storage full or off: derived again next time.
  }
  return { ...ANTD_STYLE_SHAPE, algorithm, ...derived };
}

/** Whether the active theme is dark (what users who follow the system see when the admin made it so). */
export const isDarkTheme = (tokens: ThemeTokens | null) => tokens?.algorithm === 'dark';
