import { type ReactNode, useRef } from 'react';
import { useKeyboardScrollable } from './scrollRegion';

/** A table that scrolls sideways (on a phone) takes the focus, so the keyboard scrolls it too. */
export function Scrollable({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useKeyboardScrollable(ref, label);
  return <div ref={ref}>{children}</div>;
}
