/**
 * The one inline script of index.html (the build puts it first in <head>): before anything paints, it
 * marks the page dark when the user's cached colour scheme makes it so, so a dark user's reload shows
 * no white page while the panel's scripts arrive. The panel's Content-Security-Policy allows this
 * script, and no other inline one, by its hash (server/http/securityHeaders.ts).
 */
import { STORAGE_KEYS } from './constants';

const dark = [
  `s==='dark'`,
  `(s!=='light'&&(localStorage.getItem(${JSON.stringify(STORAGE_KEYS.siteDark)})==='1'||matchMedia('(prefers-color-scheme: dark)').matches))`,
].join('||');

export const COLOR_SCHEME_BOOT = `try{var s=localStorage.getItem(${JSON.stringify(STORAGE_KEYS.colorScheme)});if(${dark}){var r=document.documentElement;r.style.colorScheme='dark';r.dataset.scheme='dark'}}catch(e){}`;
