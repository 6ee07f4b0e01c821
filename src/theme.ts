import { type ThemeConfig, theme } from 'antd';
import type { ThemeTokens } from './contract';

/** The active theme (admin's Themes screen) as Ant Design theme tokens, for everyone. */
export function themeConfig(tokens: ThemeTokens | null): ThemeConfig {
  const algorithm =
    tokens?.algorithm === 'dark' ? theme.darkAlgorithm : tokens?.algorithm === 'compact' ? theme.compactAlgorithm : theme.defaultAlgorithm;
  return {
    algorithm,
    token: {
      ...(tokens?.colorPrimary ? { colorPrimary: tokens.colorPrimary } : {}),
      ...(tokens?.colorBgLayout ? { colorBgLayout: tokens.colorBgLayout } : {}),
      ...(tokens?.borderRadius !== undefined ? { borderRadius: tokens.borderRadius } : {}),
    },
  };
}
