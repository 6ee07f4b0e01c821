/**
 * The default theme's and the shipped presets' antd tokens, derived at build time and handed to the
 * panel as a constant (src/theme.ts reads `__BUILT_THEME_DERIVATIONS__`), so that it opens in them
 * without deriving. The build (vite.config.ts) and the provider tests (vitest.config.ts) define it alike.
 */
import { THEME_PRESETS } from '../src/contract/constants.js';
import { builtThemeDerivations } from '../src/theme.js';

export const builtThemesDefine = () => ({
  __BUILT_THEME_DERIVATIONS__: JSON.stringify(builtThemeDerivations(THEME_PRESETS.map((preset) => preset.tokens))),
});
