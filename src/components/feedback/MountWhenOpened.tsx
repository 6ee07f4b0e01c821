import { type ReactNode, Suspense, useState } from 'react';

/**
 * Renders a dialog only from the first time it opens. A closed dialog still runs its form, its
 * queries and antd's style hooks on every render of the page, before the page can show its rows;
 * once opened it stays mounted, so closing keeps its animation and opening again is immediate. A
 * dialog whose code loads on first use (lazyComponent) suspends here, not the page around it.
 */
export function MountWhenOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open ? <Suspense fallback={null}>{children}</Suspense> : null;
}
