/**
 * What antd needs from a browser that jsdom lacks (matchMedia for responsive columns and grids,
 * ResizeObserver for tables and selects,
 * getComputedStyle with a pseudo-element). Import it before rendering antd components.
 */
import { waitFor as waitForDefault } from '@testing-library/react';

if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
// jsdom does not implement pseudo-elements (antd measures ::-webkit-scrollbar); answer the element's style.
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

/**
 * waitFor with room for antd, which renders form errors a beat later, and for a page's lazy parts,
 * which vitest transforms on first import: beside the other test layers on two cores, that has taken
 * more than 10 s (the default is one second).
 */
export const waitFor = (assertion: () => void) => waitForDefault(assertion, { timeout: 20_000 });
