import '@ant-design/v5-patch-for-react-19';
// antd's component styles, rendered by the build (scripts/antdStyles.ts); empty in development.
import 'virtual:antd-styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './App';
import { preloadPage } from './navigation';
import { preloadAppConfig } from './providers/appConfig';
import { http } from './providers/http';
import { identity } from './providers/identity';
import { session } from './providers/session';

// zod compiles object parsers with `new Function`, which the panel's Content-Security-Policy forbids
// (no 'unsafe-eval'); the interpreted parser is the same rules.
z.config({ jitless: true });

// What the first screen needs, requested together before React renders: the page's module, the
// public configuration (theme) and the signed-in user.
preloadPage(window.location.pathname, Boolean(session.token()));
void preloadAppConfig();
void identity.load(http).catch(() => undefined);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
