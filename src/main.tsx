import '@ant-design/v5-patch-for-react-19';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './App';

// zod compiles object parsers with `new Function`, which the panel's Content-Security-Policy forbids
// (no 'unsafe-eval'); the interpreted parser is the same rules.
z.config({ jitless: true });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
