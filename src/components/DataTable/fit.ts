/**
 * Which columns a list shows in its rows and which it folds into the row's details, so that a list
 * never scrolls sideways where its key columns fit (columns of about 150 px that collapse on small
 * screens, docs/domain.md#lists).
 *
 * - `priority: 'key'` columns identify the row and its state: always in the row, and on the phone card.
 * - `priority: 'secondary'` columns are always in the details (expanded row, or the card's details).
 * - Other columns are in the row while they fit, folded from the last declared when the list is too
 *   narrow; a column's `responsive` breakpoints fold it below them.
 */
import type { Breakpoint } from 'antd';

export const DEFAULT_COLUMN_WIDTH = 150;
/** Widths of the columns the table adds around the declared ones. */
export const SELECTION_WIDTH = 32;
export const EXPAND_WIDTH = 48;
export const ACTIONS_WIDTH = 110;
export const NUMBER_WIDTH = 48;

export type ColumnPriority = 'key' | 'secondary';

export interface FitColumn {
  width?: number | string;
  priority?: ColumnPriority;
  responsive?: Breakpoint[];
}

export const columnWidth = (column: FitColumn) => (typeof column.width === 'number' ? column.width : DEFAULT_COLUMN_WIDTH);

/** The key columns: those declared so, or the first column (what names the row) when none is. */
export function keyColumns<C extends FitColumn>(columns: readonly C[]): C[] {
  const declared = columns.filter((c) => c.priority === 'key');
  return declared.length > 0 ? declared : columns.slice(0, 1);
}

/**
 * The columns a user may hide (the Columns chooser): every titled column but the key ones. A list's
 * names of them are the contract's CHOOSABLE_COLUMNS, which the server checks a stored choice against.
 */
export function hideableColumns<C extends FitColumn & { title?: unknown }>(columns: readonly C[]): C[] {
  const keys = keyColumns(columns);
  return columns.filter((c) => !keys.includes(c) && Boolean(c.title));
}

/**
 * Splits the columns into those shown in the row and those folded into its details. `available` is
 * the width left for the declared columns (null before the table is measured: nothing folds for room);
 * `screens` are antd's matched breakpoints; `foldWidth` is what the expand control takes once
 * anything folds (a list whose columns all fit has none, and keeps that width for its columns).
 */
export function fitColumns<C extends FitColumn>(
  columns: readonly C[],
  available: number | null,
  screens: Partial<Record<Breakpoint, boolean>>,
  foldWidth = 0,
): { shown: C[]; folded: C[] } {
  const keys = new Set(keyColumns(columns));
  const fits = (c: C) => keys.has(c) || (c.priority !== 'secondary' && (!c.responsive || c.responsive.some((bp) => screens[bp])));
  const shown = columns.filter(fits);
  if (available !== null) {
    let total = shown.reduce((sum, c) => sum + columnWidth(c), 0);
    const room = shown.length < columns.length || total > available ? available - foldWidth : available;
    for (let i = shown.length - 1; i >= 0 && total > room; i--) {
      if (keys.has(shown[i])) continue;
      total -= columnWidth(shown[i]);
      shown.splice(i, 1);
    }
  }
  const kept = new Set(shown);
  return { shown, folded: columns.filter((c) => !kept.has(c)) };
}
