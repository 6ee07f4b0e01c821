/**
 * A table part that scrolls sideways is a named region in the tab order (WCAG 2.1.1: keyboard users
 * scroll it with the arrow keys), and only while it does scroll.
 */
import { type RefObject, useEffect } from 'react';

const SCROLLERS = '.ant-table-content, .ant-table-body';

export function useKeyboardScrollable(ref: RefObject<HTMLElement | null>, label: string) {
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const update = () =>
      root.querySelectorAll<HTMLElement>(SCROLLERS).forEach((element) => {
        if (element.scrollWidth > element.clientWidth) {
          element.tabIndex = 0;
          element.setAttribute('role', 'region');
          element.setAttribute('aria-label', label);
        } else {
          element.removeAttribute('tabindex');
          element.removeAttribute('role');
          element.removeAttribute('aria-label');
        }
      });
    // The observer also calls back once on observing, after the browser's next layout: measured then,
    // the first render does not force a layout of its own. The width changes with the window; the
    // content with the rows, which change the height.
    const observer = new ResizeObserver(update);
    observer.observe(root);
    return () => observer.disconnect();
  }, [ref, label]);
}
