/**
 * The user's colour scheme (src/providers/colorScheme.ts): 'system' follows the device's setting as it
 * changes, an explicit choice wins over it and over the site theme's darkness, the choice is cached
 * for the next load and reconciled with the server; and the site theme in the user's scheme.
 */
import './dom';
import { act, render } from '@testing-library/react';
import { theme, version } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveColorScheme } from '../../src/components/hooks/useColorSchemeSetting';
import { colorScheme, resolveDark, useDarkScheme } from '../../src/providers/colorScheme';
import { createHttp } from '../../src/providers/http';
import { STORAGE_KEYS, THEME_PRESETS } from '../../src/contract';
import { builtThemeDerivations, derivationKey, themeConfig } from '../../src/theme';
import { fakeHttp } from './fakeHttp';

/** A device whose light or dark setting the test turns, telling listeners as a browser does. */
function fakeDevice(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  window.matchMedia = ((q: string) =>
    q === query.media ? query : { matches: false, addEventListener() {}, removeEventListener() {} }) as unknown as typeof window.matchMedia;
  return {
    turn(next: boolean) {
      dark = next;
      listeners.forEach((listener) => listener());
    },
    listening: () => listeners.size,
  };
}

function Probe({ siteDark = false }: { siteDark?: boolean }) {
  return <output data-testid="scheme">{useDarkScheme(siteDark) ? 'dark' : 'light'}</output>;
}

const originalMatchMedia = window.matchMedia;
beforeEach(() => {
  localStorage.clear();
  colorScheme.reset();
});
afterEach(() => {
  window.matchMedia = originalMatchMedia;
  localStorage.clear();
});

describe('which scheme shows', () => {
  it('an explicit choice wins over the device and the site theme; system follows the device, or the dark site theme', () => {
    for (const systemDark of [false, true]) {
      for (const siteDark of [false, true]) {
        expect(resolveDark('dark', systemDark, siteDark)).toBe(true);
        expect(resolveDark('light', systemDark, siteDark)).toBe(false);
        expect(resolveDark('system', systemDark, siteDark)).toBe(systemDark || siteDark);
      }
    }
  });

  it("'system' follows the device's setting as it changes, without a reload", () => {
    const device = fakeDevice(false);
    const view = render(<Probe />);
    expect(view.getByTestId('scheme').textContent).toBe('light');
    act(() => device.turn(true));
    expect(view.getByTestId('scheme').textContent).toBe('dark');
    act(() => device.turn(false));
    expect(view.getByTestId('scheme').textContent).toBe('light');
    view.unmount();
    expect(device.listening()).toBe(0);
  });

  it('an explicit choice holds whatever the device says, and switches at once', () => {
    const device = fakeDevice(true);
    const view = render(<Probe />);
    expect(view.getByTestId('scheme').textContent).toBe('dark');
    act(() => colorScheme.choose('light'));
    expect(view.getByTestId('scheme').textContent).toBe('light');
    act(() => device.turn(false));
    act(() => device.turn(true));
    expect(view.getByTestId('scheme').textContent).toBe('light');
    act(() => colorScheme.choose('dark'));
    act(() => device.turn(false));
    expect(view.getByTestId('scheme').textContent).toBe('dark');
    // Light wins over a dark site theme too.
    act(() => colorScheme.choose('light'));
    view.rerender(<Probe siteDark />);
    expect(view.getByTestId('scheme').textContent).toBe('light');
    act(() => colorScheme.choose('system'));
    expect(view.getByTestId('scheme').textContent).toBe('dark');
  });
});

describe('where the choice is kept', () => {
  it('caches the choice for the next load, and ignores a cache it cannot read', () => {
    colorScheme.choose('dark');
    expect(localStorage.getItem('colorScheme')).toBe('dark');
    colorScheme.reset();
    expect(colorScheme.choice()).toBe('dark');
    localStorage.setItem('colorScheme', 'sepia');
    colorScheme.reset();
    expect(colorScheme.choice()).toBe('system');
  });

  it("takes the server's choice after sign-in, unless the user chose meanwhile; a failure keeps the cached one", async () => {
    localStorage.setItem('token', 'tok');
    const fake = fakeHttp(createHttp());
    fake.on('GET', 'profile/preferences', { status: 200, body: { data: { colorScheme: 'dark' } } });
    await colorScheme.load(fake.http);
    expect(colorScheme.choice()).toBe('dark');
    expect(localStorage.getItem('colorScheme')).toBe('dark');

    let answer!: () => void;
    fake.on('GET', 'profile/preferences', () => ({ status: 200, body: { data: { colorScheme: 'light' } } }));
    const slow = { ...fake.http, get: (...args: Parameters<typeof fake.http.get>) => new Promise((resolve) => (answer = () => resolve(fake.http.get(...args)))) };
    const loading = colorScheme.load(slow as typeof fake.http);
    colorScheme.choose('system');
    answer();
    await loading;
    expect(colorScheme.choice()).toBe('system');

    fake.on('GET', 'profile/preferences', { status: 503, body: { message: 'maintenance' } });
    await colorScheme.load(fake.http);
    expect(colorScheme.choice()).toBe('system');
  });

  it('saves a choice on the server, and takes it back when the server refuses it', async () => {
    localStorage.setItem('token', 'tok');
    const fake = fakeHttp(createHttp());
    fake.on('PATCH', 'profile/preferences', { status: 200, body: { data: { colorScheme: 'dark' } } });
    await saveColorScheme('dark', fake.http);
    expect(fake.last()).toMatchObject({ method: 'PATCH', body: { colorScheme: 'dark' } });
    expect(colorScheme.choice()).toBe('dark');
    fake.on('PATCH', 'profile/preferences', { status: 422, body: { message: 'bad', errors: { colorScheme: ['bad'] } } });
    await expect(saveColorScheme('light', fake.http)).rejects.toMatchObject({ statusCode: 422 });
    expect(colorScheme.choice()).toBe('dark');
    expect(localStorage.getItem('colorScheme')).toBe('dark');
  });
});

describe('the site theme in the user scheme', () => {
  const classic = { name: 'Classic', slug: 'classic', colorPrimary: '#1677ff', colorBgLayout: '#f5f5f5', borderRadius: 6, algorithm: 'default' as const };
  const midnight = { name: 'Midnight', slug: 'midnight', colorPrimary: '#722ed1', borderRadius: 8, algorithm: 'dark' as const };
  const compact = { name: 'Compact Green', slug: 'compact-green', colorPrimary: '#389e0d', colorBgLayout: '#f6ffed', borderRadius: 4, algorithm: 'compact' as const };
  const tokens = (config: ReturnType<typeof themeConfig>) => theme.getDesignToken(config);
  const isDarkPage = (config: ReturnType<typeof themeConfig>) => [config.algorithm].flat().includes(theme.darkAlgorithm);

  it("dark over a light site theme keeps its colours and rounding but not its light page colour; the theme's own scheme by default", () => {
    expect(themeConfig(classic)).toBe(themeConfig(classic, false));
    const dark = themeConfig(classic, true);
    expect(isDarkPage(dark)).toBe(true);
    expect(tokens(dark).borderRadius).toBe(6);
    expect(tokens(dark).colorBgLayout).toBe(tokens(themeConfig(null, true)).colorBgLayout);
    expect(tokens(themeConfig(classic, false)).colorBgLayout).toBe('#f5f5f5');
  });

  it('light over a dark site theme, and dark over a compact one stays compact', () => {
    expect(isDarkPage(themeConfig(midnight))).toBe(true);
    expect(isDarkPage(themeConfig(midnight, false))).toBe(false);
    const compactDark = themeConfig(compact, true);
    expect(isDarkPage(compactDark)).toBe(true);
    expect([compactDark.algorithm].flat()).toContain(theme.compactAlgorithm);
    expect(tokens(compactDark).controlHeight).toBe(tokens(themeConfig(compact)).controlHeight);
  });

  it('a reload takes the derivation kept for the same theme and antd version, and derives again for any other', () => {
    const ocean = { name: 'Ocean', slug: 'ocean', colorPrimary: '#0958d9', borderRadius: 5, algorithm: 'default' as const };
    const kept = themeConfig(ocean);
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEYS.themeConfig)!);
    expect(stored.key).toBe(`${version} ${derivationKey(ocean, false)}`);
    expect(stored.derived.token).toEqual(kept.token);

    // As a reload finds it: a planted derivation for the next theme is taken as it is.
    const sea = { ...ocean, slug: 'sea', colorPrimary: '#1d39c4' };
    const planted = { token: { colorPrimary: '#123456' }, components: {} };
    localStorage.setItem(STORAGE_KEYS.themeConfig, JSON.stringify({ key: `${version} ${derivationKey(sea, false)}`, derived: planted }));
    expect(themeConfig(sea).token).toEqual(planted.token);
    expect(isDarkPage(themeConfig(sea))).toBe(false);

    // One kept by another antd version is not.
    const lake = { ...ocean, slug: 'lake', colorPrimary: '#10239e' };
    localStorage.setItem(STORAGE_KEYS.themeConfig, JSON.stringify({ key: `0.0.0 ${derivationKey(lake, false)}`, derived: planted }));
    expect(themeConfig(lake).token?.colorPrimary).not.toBe('#123456');
    expect(tokens(themeConfig(lake)).colorPrimary).toBe(tokens({ token: { colorPrimary: lake.colorPrimary } }).colorPrimary);
  });

  it('the shipped presets and the default theme open in what the build derived, in both schemes, without deriving', async () => {
    const fresh = builtThemeDerivations(THEME_PRESETS.map((p) => p.tokens));
    expect(Object.keys(fresh)).toHaveLength((THEME_PRESETS.length + 1) * 2);
    // A module of its own: nothing derived or kept yet.
    vi.resetModules();
    const loaded = await import('../../src/theme');
    localStorage.removeItem(STORAGE_KEYS.themeConfig);
    for (const tokens of [null, ...THEME_PRESETS.map((p) => ({ name: `${p.name} copy`, slug: `${p.slug}-copy`, ...p.tokens }))]) {
      for (const dark of [false, true]) {
        const config = loaded.themeConfig(tokens, dark);
        expect(config.token).toEqual(fresh[derivationKey(tokens, dark)]!.token);
        expect(isDarkPage(config)).toBe(dark);
      }
    }
    // Taken from the build: a derivation would have been kept in the browser, as another theme's is.
    expect(localStorage.getItem(STORAGE_KEYS.themeConfig)).toBeNull();
    loaded.themeConfig({ name: 'Own', slug: 'own', colorPrimary: '#531dab', borderRadius: 3, algorithm: 'default' }, false);
    expect(localStorage.getItem(STORAGE_KEYS.themeConfig)).not.toBeNull();
  });
});
