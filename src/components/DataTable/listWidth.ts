/**
 * The width a list's rows are laid out in: known before layout where it can be, then measured, and
 * remembered per page list and window width.
 *
 * Which columns fit decides the cells, so a list's rows wait for its width. Measured in a layout
 * effect, that costs a style and layout pass of the whole page before the rows are rendered, and the
 * page renders a second time with them (30-40 ms of a /users reload). So a list renders its rows in
 * its first commit at the width it had at this window width (a reload, Back, another visit, a new
 * tab), or else at the width its page's geometry gives (a first visit); the resize observer, which
 * reads the layout the browser has just made, corrects either if something else decided it (the
 * menu folded, a scrollbar, a page that puts the list beside something).
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { STORAGE_KEYS } from '../../contract';

type Remembered = Record<string, { window: number; width: number }>;

function readAll(): Remembered {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEYS.listWidths) ?? '{}');
    return stored && typeof stored === 'object' ? (stored as Remembered) : {};
  } catch {
    return {};
  }
}

function remembered(list: string): number | null {
  const entry = readAll()[list];
  return entry && entry.window === window.innerWidth && typeof entry.width === 'number' && entry.width > 0 ? entry.width : null;
}

function remember(list: string | null, width: number | null) {
  if (list === null || width === null) return;
  try {
    const all = readAll();
    if (all[list]?.window === window.innerWidth && all[list]?.width === width) return;
    localStorage.setItem(STORAGE_KEYS.listWidths, JSON.stringify({ ...all, [list]: { window: window.innerWidth, width } }));
  } catch {
    // Storage full or refused: the next visit measures again.
  }
}

/**
 * Width of the element, followed as it changes (null until measured, and where nothing lays out), and
 * whether it is known yet: the first render comes before the element exists. `list` names a page
 * list whose width is remembered (null: a list in a dialog or drawer, measured each time), and
 * `expected` gives a page list's width before layout when none is remembered.
 */
export function useListWidth<E extends HTMLElement>(list: string | null, expected: () => number) {
  const ref = useRef<E>(null);
  const [initial] = useState(() => {
    if (list === null) return null;
    const width = remembered(list) ?? expected();
    return width > 0 ? width : null;
  });
  const [width, setWidth] = useState<number | null>(initial);
  const [measured, setMeasured] = useState(initial !== null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const read = () => {
      const next = element.clientWidth > 0 ? element.clientWidth : null;
      remember(list, next);
      return next;
    };
    if (initial === null) {
      setWidth(read());
      setMeasured(true);
    }
    // Called after the browser's layout, so reading it costs nothing.
    const observer = new ResizeObserver(() => setWidth(read()));
    observer.observe(element);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return [ref, width, measured] as const;
}
