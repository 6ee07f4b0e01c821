/**
 * The header's palette button and the Ctrl-K / Cmd-K shortcut. The palette's code (kbar) loads on
 * first use, so the first load of the panel does not carry it.
 */
import { SearchOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { PALETTE } from '../../contract';
import { lazyComponent } from '../lazyComponent';
import type { MenuEntry } from '../routing';
import type { PaletteSearch } from './CommandPalette';

const CommandPalette = lazyComponent(() => import('./CommandPalette'), 'CommandPalette');

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export function PaletteLauncher({ entries, searches, mobile }: { entries: MenuEntry[]; searches: PaletteSearch[]; mobile: boolean }) {
  // Each opening mounts a fresh palette (an empty search); a closed one renders nothing.
  const [opening, setOpening] = useState(0);
  const showing = useRef(false);
  const onShowing = useCallback((value: boolean) => void (showing.current = value), []);
  const open = useCallback(() => setOpening((n) => n + 1), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // While it shows, the palette's own shortcut closes it.
      if (!showing.current && (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        open();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const shortcut = isMac() ? PALETTE.shortcut.mac : PALETTE.shortcut.other;
  return (
    <>
      <Button
        type="text"
        icon={<SearchOutlined />}
        aria-label={mobile ? PALETTE.open : undefined}
        aria-keyshortcuts="Control+K Meta+K"
        onClick={open}
        onPointerEnter={() => void CommandPalette.preload()}
        data-testid="palette-button"
      >
        {!mobile && (
          <>
            {PALETTE.open} <kbd className="app-palette-kbd">{shortcut}</kbd>
          </>
        )}
      </Button>
      {opening > 0 && (
        <Suspense fallback={null}>
          <CommandPalette key={opening} entries={entries} searches={searches} onShowing={onShowing} />
        </Suspense>
      )}
    </>
  );
}
