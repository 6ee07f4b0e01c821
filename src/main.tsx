import '@ant-design/v5-patch-for-react-19';
// antd's component styles, rendered by the build (scripts/antdStyles.ts); empty in development.
import 'virtual:antd-styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './App';
import { preloadPage } from './navigation';
import { preloadAppConfig } from './providers/appConfig';
import { colorScheme } from './providers/colorScheme';
import { http } from './providers/http';
import { identity } from './providers/identity';
import { session } from './providers/session';
import { isDarkTheme, themeConfig } from './theme';

// zod compiles object parsers with `new Function`, which the panel's Content-Security-Policy forbids
// (no 'unsafe-eval'); the interpreted parser is the same rules.
z.config({ jitless: true });

// What the first screen needs, requested together before React renders: the public configuration
// (theme), the signed-in user, and the page's list and module. The theme's tokens are derived as
// soon as it is known, rather than in the first render.
void preloadAppConfig().then((config) => themeConfig(config.theme, colorScheme.isDark(isDarkTheme(config.theme))));
void identity.load(http).catch(() => undefined);
// The user's colour scheme painted from its cache (index.html); the server's answer reconciles it.
if (session.token()) void colorScheme.load(http);
const page = preloadPage(window.location.pathname, Boolean(session.token()), window.location.search);

// The first render waits for the page's module (nothing shows before the theme anyway, which
// arrives at about the same time): a page that suspends shows its fallback, and React then holds
// the page back until 300 ms after that fallback appeared.
void page.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
