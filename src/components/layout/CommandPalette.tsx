/**
 * The command palette (kbar, through Refine's @refinedev/kbar): the role's menu entries, and the
 * accounts and members the caller's lists find for what is typed. Loaded on first use
 * (PaletteLauncher.tsx), mounted anew at each opening.
 */
import {
  type Action,
  KBarAnimator,
  KBarPortal,
  KBarPositioner,
  KBarProvider,
  KBarResults,
  KBarSearch,
  VisualState,
  useKBar,
  useMatches,
  useRegisterActions,
} from '@refinedev/kbar';
import { type BaseRecord, useList } from '@refinedev/core';
import { theme } from 'antd';
import { type ReactNode, useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { PALETTE } from '../../contract';
import { useDebounced } from '../hooks';
import { listUrl } from '../DataTable/listLocation';
import type { MenuEntry } from '../routing';

const NONE: BaseRecord[] = [];

/** A list the palette searches: its resource, the list's path, its label, and how a row reads. */
export interface PaletteSearch {
  resource: string;
  path: string;
  label: string;
  icon?: ReactNode;
  /** The row's text that opens the list filtered to it, and a line under it. */
  row: (record: BaseRecord) => { key: string; subtitle: string };
}

interface PaletteProps {
  entries: MenuEntry[];
  searches: PaletteSearch[];
  /** Whether it shows (the launcher opens a new one on the shortcut only when it does not). */
  onShowing: (showing: boolean) => void;
}

export function CommandPalette(props: PaletteProps) {
  return (
    // Not the document lock: the page behind keeps its scrollbar, so nothing moves as it opens.
    <KBarProvider options={{ disableScrollbarManagement: true, disableDocumentLock: true }}>
      <Palette {...props} />
    </KBarProvider>
  );
}

function Palette({ entries, searches, onShowing }: PaletteProps) {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const { query, searchQuery, visualState } = useKBar((state) => ({ searchQuery: state.searchQuery, visualState: state.visualState }));

  // Mounted on the shortcut or the button: open at once.
  useEffect(() => query.setVisualState(VisualState.showing), [query]);
  useEffect(() => onShowing(visualState !== VisualState.hidden), [visualState, onShowing]);

  const screens = useMemo<Action[]>(
    () =>
      entries
        .flatMap((entry) => ('group' in entry ? entry.children.map((c) => ({ ...c, group: entry.group as string | undefined })) : [{ ...entry, group: undefined }]))
        .map((link) => ({
          id: `screen:${link.path}`,
          name: link.label,
          keywords: link.group,
          section: PALETTE.screens,
          icon: link.icon,
          perform: () => navigate(link.path),
        })),
    [entries, navigate],
  );
  useRegisterActions(screens, [screens]);

  const term = useDebounced(searchQuery.trim());
  return (
    <KBarPortal>
      <KBarPositioner style={{ background: token.colorBgMask, zIndex: token.zIndexPopupBase + 50 }}>
        <KBarAnimator style={{ width: 'min(600px, 100%)' }}>
          <div
            role="dialog"
            aria-modal="true"
            aria-label={PALETTE.title}
            style={{
              background: token.colorBgElevated,
              color: token.colorText,
              borderRadius: token.borderRadiusLG,
              boxShadow: token.boxShadowSecondary,
              overflow: 'hidden',
            }}
          >
            <KBarSearch
              aria-label={PALETTE.placeholder}
              defaultPlaceholder={PALETTE.placeholder}
              style={{
                width: '100%',
                boxSizing: 'border-box',
                padding: `${token.paddingSM}px ${token.padding}px`,
                fontSize: token.fontSizeLG,
                border: 'none',
                borderBottom: `1px solid ${token.colorBorderSecondary}`,
                outline: 'none',
                background: 'transparent',
                color: token.colorText,
              }}
            />
            {searches.map((search) => (
              <SearchResults key={search.resource} search={search} term={term} />
            ))}
            <Results />
          </div>
        </KBarAnimator>
      </KBarPositioner>
    </KBarPortal>
  );
}

/** One list's rows for the term, registered as actions that open the list filtered to the row. */
function SearchResults({ search, term }: { search: PaletteSearch; term: string }) {
  const navigate = useNavigate();
  const enabled = term.length >= PALETTE.minSearch;
  const { result } = useList({
    resource: search.resource,
    filters: [{ field: 'search', operator: 'contains', value: term }],
    pagination: { currentPage: 1, pageSize: PALETTE.perList, mode: 'server' },
    queryOptions: { enabled },
  });
  const rows = (enabled && result.data) || NONE;
  const actions = useMemo<Action[]>(
    () =>
      rows.map((record) => {
        const { key, subtitle } = search.row(record);
        return {
          id: `${search.resource}:${String(record.id)}`,
          name: key,
          subtitle,
          // The API matched it: the typed text keeps it among kbar's matches.
          keywords: `${term} ${subtitle}`,
          section: search.label,
          icon: search.icon,
          perform: () => navigate(listUrl(search.path, [['search', key]])),
        };
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rows, term],
  );
  useRegisterActions(actions, [actions]);
  return null;
}

function Results() {
  const { results } = useMatches();
  const { token } = theme.useToken();
  return (
    <div style={{ paddingBottom: token.paddingXS }}>
      <KBarResults
        items={results}
        maxHeight={400}
        onRender={({ item, active }) =>
          typeof item === 'string' ? (
            <div style={{ padding: `${token.paddingXS}px ${token.padding}px`, fontSize: token.fontSizeSM, color: token.colorTextSecondary, textTransform: 'uppercase' }}>
              {item}
            </div>
          ) : (
            <div
              data-palette-item
              style={{
                display: 'flex',
                gap: token.paddingSM,
                alignItems: 'center',
                padding: `${token.paddingXS}px ${token.padding}px`,
                cursor: 'pointer',
                background: active ? token.controlItemBgActive : 'transparent',
                borderLeft: `3px solid ${active ? token.colorPrimary : 'transparent'}`,
              }}
            >
              {item.icon}
              <span>
                <span>{item.name}</span>
                {item.subtitle && <span style={{ display: 'block', fontSize: token.fontSizeSM, color: token.colorTextSecondary }}>{item.subtitle}</span>}
              </span>
            </div>
          )
        }
      />
    </div>
  );
}
