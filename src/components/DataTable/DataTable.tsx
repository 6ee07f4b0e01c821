/**
 * The one data table every list uses (docs/domain.md#lists): server paging with page sizes
 * 10/15/25/50, a 500 ms debounced search, select filters, sortable columns, row checkboxes with bulk
 * actions, row actions, refresh, the pagination bar, 'No data found', and an error banner.
 *
 * It fits the screen: below 576 px each row is a card with its key columns (PhoneList); wider, the
 * row keeps the columns that fit and the others fold into an expanded row (fit.ts), so the list does
 * not scroll sideways where its key columns fit. Its title is the page's h1.
 *
 * Lists that are not a table (cards, grouped sections) give `renderRows` and keep the rest: filters,
 * paging, refresh, the empty state and the load error. `header` is content above the list (stats cards).
 */
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { type BaseRecord, type CrudFilter, type CrudSort, type HttpError, useTable } from '@refinedev/core';
import { Alert, Button, Card, Input, Select, Skeleton, Space, Spin, Table, type TableProps, Typography } from 'antd';
import type { ColumnType, SortOrder } from 'antd/es/table/interface';
import { type ReactNode, Suspense, lazy, useEffect, useMemo, useRef, useState } from 'react';
import {
  CHOOSABLE_COLUMNS,
  DATA_TABLE,
  DEFAULT_PAGE_SIZE,
  GENERAL,
  PAGE_SIZES,
  SEARCH_DEBOUNCE_MS,
  type SortKeyFor,
  isChoosableList,
  isExportableList,
} from '../../contract';
import { exportRequest } from '../../providers/dataProvider';
import { CsvDownload } from '../export/CsvDownload';
import { errorNotification } from '../feedback/notify';
import { useDebounced } from '../hooks';
import { usePageHeading } from '../layout/PageHeading';
import { useScreens } from '../layout/screens';
import { cardBodyWidth, cardPadding } from '../layout/geometry';
import { PhoneList } from './PhoneList';
import { ListEmpty } from './ListEmpty';
import { Pagination, pagingOf } from './Pagination';
import { RowActionsMenu, RowDetails, rowName } from './cells';
import { useKeyboardScrollable } from './scrollRegion';
import { useListWidth } from './listWidth';
import { useColumnChoice } from './columnChoice';
import { ColumnChooser } from './ColumnChooser';
import { ACTIONS_WIDTH, type ColumnPriority, EXPAND_WIDTH, NUMBER_WIDTH, SELECTION_WIDTH, columnWidth, fitColumns, hideableColumns, keyColumns } from './fit';
import type { DateRangeValue } from './DateRangeFilter';
import { type ViewRules, anyText, calendarDay, oneOf, useUrlView, useViewInUrl } from './listLocation';
import './DataTable.css';

const DateRangeFilter = lazy(() => import('./DateRangeFilter'));

interface ColumnBase<T> extends Omit<ColumnType<T>, 'sorter' | 'dataIndex'> {
  dataIndex: string;
  /**
   * 'key': identifies the row or its state; always in the row and on the phone card. 'secondary':
   * always in the row's details. Others are in the row while they fit (see fit.ts).
   */
  priority?: ColumnPriority;
  /** The key of a row action offered as a button beside this field on the phone card (an account's Renew). */
  inlineAction?: string;
}

/**
 * Whether a column sorts on the server, and by which of its list's sort keys K (src/contract/lists.ts):
 * its sortKey, or its dataIndex when that is one. A sortable column of a list that has no such key does not compile.
 */
type ColumnSort<K extends string> = { sortable: true; sortKey: K } | { sortable: true; sortKey?: undefined; dataIndex: K } | { sortable?: false; sortKey?: undefined };

/** A column of a list whose sort keys are K (never: not sortable); see ListColumn. */
export type DataColumn<T, K extends string = never> = ColumnBase<T> & ColumnSort<K>;

/** A column of the list of that resource: sortable only by the sort keys its contract entry declares. */
export type ListColumn<T, R extends string> = DataColumn<T, SortKeyFor<R>>;

export interface SelectFilter {
  field: string;
  label: string;
  options: Array<{ label: string; value: string | number | boolean }>;
  /** The value shown as "All" (clears the filter). */
  allLabel?: string;
  /** No "All" option: the label as placeholder and a clear button (the audit log's and announcements' filters). */
  clearable?: boolean;
  /** Type to find an option. */
  showSearch?: boolean;
  /** Told when the options are first asked for (options read only then). */
  onOpen?: () => void;
  loading?: boolean;
}

/** A text filter besides the search, sent as its own parameter (trimmed) after typing pauses. */
export interface TextFilter {
  field: string;
  label: string;
}

/** A date range sent as two fields, each a calendar day. */
export interface DateRangeFilter {
  from: string;
  to: string;
  label: string;
}

export interface RowAction<T> {
  key: string;
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  hidden?: boolean;
  disabled?: boolean;
  onClick: (record: T) => void;
}

export interface BulkAction<T> {
  key: string;
  label: string;
  danger?: boolean;
  onClick: (ids: Array<string | number>, records: T[], clear: () => void) => void;
}

/** An action on every row the current filters match (not only the selected ones), offered beside the selection. */
export interface MatchingAction {
  key: string;
  label: string;
  onClick: (filters: CrudFilter[], total: number) => void;
}

export interface DataTableProps<T extends BaseRecord, R extends string> {
  /** The list (src/contract/lists.ts): its path, parameters and sort keys. */
  resource: R;
  /** Sortable only by the sort keys of the resource's list. */
  columns: Array<DataColumn<T, SortKeyFor<R>>>;
  /** The page's title, as its h1 (none inside a drawer or dialog that has its own). */
  title?: ReactNode;
  /** Buttons beside the title (e.g. Add). */
  extra?: ReactNode;
  searchable?: boolean;
  searchPlaceholder?: string;
  selectFilters?: SelectFilter[];
  textFilters?: TextFilter[];
  dateRange?: DateRangeFilter;
  /** A button after the filters that clears them (its label). */
  clearLabel?: string;
  /** Told the filters as they change (figures above the list that follow them). */
  onFiltersChange?: (filters: CrudFilter[]) => void;
  /** Content above the list, outside its card (stats cards). */
  header?: ReactNode;
  /** The rows drawn by the page instead of the table, at every width (cards, sections), with each row's visible actions. */
  renderRows?: (rows: T[], actionsOf: (record: T) => Array<RowAction<T>>) => ReactNode;
  /** Also run by Refresh (what the page shows beside the list). */
  onRefresh?: () => void;
  /** A failed load shows in a banner above the rows (default); false: the list just stays empty. */
  loadErrorBanner?: boolean;
  onRow?: TableProps<T>['onRow'];
  /** Filters the user cannot remove (e.g. the parent of a sub-list). */
  permanentFilters?: CrudFilter[];
  initialSorters?: CrudSort[];
  rowActions?: (record: T) => Array<RowAction<T>>;
  bulkActions?: Array<BulkAction<T>>;
  /** 'Apply to all N matching': actions on everything the list's filters select, across pages. */
  matchingActions?: MatchingAction[];
  pageSizes?: readonly number[];
  defaultPageSize?: number;
  meta?: Record<string, unknown>;
  rowKey?: string;
  /** Shown instead of the message of a failed load (some screens name theirs). */
  loadErrorMessage?: string;
  /** Also show a failed load as an error toast (some screens show both). */
  notifyLoadError?: boolean;
  /** Title of that toast (default 'Error'). */
  loadErrorTitle?: string;
  /** A leading '#' column numbering the rows across pages. */
  rowNumbers?: boolean;
  /**
   * Keep the search, filters, sort, page and page size in the URL (listLocation.ts). Default: when the
   * list has a title, i.e. is its page's list; a list in a dialog or drawer has none and leaves the URL alone.
   */
  syncWithLocation?: boolean;
  /** What an empty list (no search or filter) says to do next, and the button that does it. */
  empty?: { hint: ReactNode; action?: ReactNode };
  /** Loads code the page needs only later (its dialogs): called when the browser is idle after the first answer is shown. */
  preload?: () => unknown;
  /** A Columns button in the header: each user hides the columns they do not need (not the key columns), remembered per list. */
  columnChooser?: boolean;
}

/** The rows of a table not yet measured (see `table` in DataTable). */
const NOT_YET: never[] = [];
const LOADING = <div className="data-table-loading" style={{ minHeight: 96 }} />;
/** Rows drawn while the first page loads: the list's own rows and cells, each value a skeleton. */
export const PLACEHOLDER_ROWS = 3;
const PLACEHOLDER_KEY = '__placeholder';
const PLACEHOLDER = <Skeleton.Input active size="small" className="data-table-skeleton" />;
const isPlaceholder = (record: BaseRecord) => String(record[PLACEHOLDER_KEY] ?? '') !== '';

/** Runs `task` when the browser is next idle (after a timeout where it has no idle callbacks). */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 200);
  return () => window.clearTimeout(id);
}

/**
 * The previous fit while the same columns are shown and folded: the table is measured after its first
 * render, and a width that changes nothing then renders none of its rows and cells again.
 */
function useSameFit<C>(fit: { shown: C[]; folded: C[] }) {
  const kept = useRef(fit);
  const same = (a: C[], b: C[]) => a.length === b.length && a.every((c, i) => c === b[i]);
  if (!same(kept.current.shown, fit.shown) || !same(kept.current.folded, fit.folded)) kept.current = fit;
  return kept.current;
}

export function DataTable<T extends BaseRecord, R extends string>({
  resource,
  columns: declaredColumns,
  title,
  extra,
  searchable = true,
  searchPlaceholder = 'Search...',
  selectFilters = [],
  textFilters,
  dateRange,
  clearLabel,
  onFiltersChange,
  header,
  renderRows,
  onRefresh,
  loadErrorBanner = true,
  onRow,
  permanentFilters,
  initialSorters,
  rowActions,
  bulkActions,
  matchingActions,
  pageSizes = PAGE_SIZES,
  defaultPageSize = DEFAULT_PAGE_SIZE,
  meta,
  rowKey = 'id',
  loadErrorMessage,
  notifyLoadError = false,
  loadErrorTitle = GENERAL.error,
  rowNumbers = false,
  syncWithLocation,
  empty,
  preload,
  columnChooser = false,
}: DataTableProps<T, R>) {
  const screens = useScreens();
  const phone = screens.xs === true;
  // A page list fills the page: the window gives its width before anything is laid out.
  const [bodyRef, bodyWidth, measured] = useListWidth<HTMLDivElement>(title !== undefined ? resource : null, () => cardBodyWidth(screens));
  const isPageTitle = usePageHeading(Boolean(title));
  // The columns the user has hidden: never a key column, which names the row or gives its state.
  const [hiddenColumns, setHiddenColumns] = useColumnChoice(columnChooser ? resource : '');
  const keys = useMemo(() => keyColumns(declaredColumns), [declaredColumns]);
  // Only the columns the server keeps a choice for (the contract's list of them).
  const choosableNames: readonly string[] = columnChooser && isChoosableList(resource) ? CHOOSABLE_COLUMNS[resource] : [];
  const choosable = hideableColumns(declaredColumns).filter((c) => choosableNames.includes(c.dataIndex));
  const columns = useMemo(
    () => (columnChooser && hiddenColumns.length > 0 ? declaredColumns.filter((c) => keys.includes(c) || !hiddenColumns.includes(c.dataIndex)) : declaredColumns),
    [columnChooser, declaredColumns, hiddenColumns, keys],
  );
  useKeyboardScrollable(bodyRef, typeof title === 'string' ? title : resource);
  const inUrl = syncWithLocation ?? title !== undefined;
  const permanentFields = (permanentFilters ?? []).flatMap((f) => ('field' in f ? [f.field] : []));
  const rules: ViewRules = {
    pageSizes,
    defaultPageSize,
    sortKeys: [...declaredColumns.flatMap((c) => (c.sortable ? [c.sortKey ?? c.dataIndex] : [])), ...(initialSorters ?? []).map((s) => s.field)],
    initialSorters: initialSorters ?? [],
    filters: [
      ...(searchable ? [{ field: 'search', operator: 'contains' as const, accept: anyText }] : []),
      // Options still loading (the audit log's modules, the servers): any value, matched to its option once they arrive.
      ...selectFilters.map((f) => ({ field: f.field, operator: 'eq' as const, accept: f.options.length > 0 ? oneOf(f.options.map((o) => o.value)) : anyText })),
      ...(textFilters ?? []).map((f) => ({ field: f.field, operator: 'eq' as const, accept: (raw: string) => raw.trim() || undefined })),
      ...(dateRange ? [dateRange.from, dateRange.to].map((field) => ({ field, operator: 'eq' as const, accept: calendarDay })) : []),
    ].filter((r) => !permanentFields.includes(r.field)),
  };
  const { fromUrl, initial } = useUrlView(inUrl, rules);
  const { tableQuery, result, currentPage, setCurrentPage, pageSize, setPageSize, sorters, setSorters, filters, setFilters } = useTable<T, HttpError>({
    resource,
    pagination: { currentPage: initial?.currentPage ?? 1, pageSize: initial?.pageSize ?? defaultPageSize, mode: 'server' },
    sorters: { initial: initial?.sorters ?? initialSorters },
    filters: { initial: initial?.filters, permanent: permanentFilters, defaultBehavior: 'merge' },
    // Kept in the URL by useViewInUrl below, not by Refine (see listLocation.ts).
    syncWithLocation: false,
    meta,
    queryOptions: { retry: false },
    // Load failures show in the banner above the table, and as a toast only where the screen asks.
    errorNotification: notifyLoadError ? errorNotification(loadErrorMessage ?? GENERAL.loadFailed, { title: loadErrorTitle, server: !loadErrorMessage }) : false,
  });

  const filterValue = (field: string) => {
    const found = filters.find((f) => 'field' in f && f.field === field);
    return found && 'value' in found ? found.value : undefined;
  };
  /** A select's value as its option's (a value taken from the URL before the options arrived is text). */
  const optionValue = (f: SelectFilter) => {
    const value = filterValue(f.field);
    return value === undefined ? undefined : (f.options.find((o) => String(o.value) === String(value))?.value ?? value);
  };
  const textOf = (field: string) => (filterValue(field) as string | undefined) ?? '';

  const [search, setSearch] = useState(() => textOf('search'));
  const debouncedSearch = useDebounced(search, SEARCH_DEBOUNCE_MS);
  // Only a change of the search: applying the empty one on mount would change the list's query key
  // after its first request was made, and the rows would wait for a second one.
  const appliedSearch = useRef(debouncedSearch);
  useEffect(() => {
    if (appliedSearch.current === debouncedSearch) return;
    appliedSearch.current = debouncedSearch;
    setFilters([{ field: 'search', operator: 'contains', value: debouncedSearch || undefined }], 'merge');
    setCurrentPage(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedSearch]);

  // Text filters: each applied when its debounced value changes, like the search.
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries((textFilters ?? []).map((f) => [f.field, textOf(f.field)])));
  const debouncedTexts = useDebounced(texts, SEARCH_DEBOUNCE_MS);
  const appliedTexts = useRef(debouncedTexts);
  useEffect(() => {
    const before = appliedTexts.current;
    appliedTexts.current = debouncedTexts;
    const value = (texts: Record<string, string>, field: string) => texts[field]?.trim() || undefined;
    const changed = (textFilters ?? []).filter((f) => value(before, f.field) !== value(debouncedTexts, f.field));
    if (changed.length === 0) return;
    setFilters(
      changed.map((f) => ({ field: f.field, operator: 'eq' as const, value: value(debouncedTexts, f.field) })),
      'merge',
    );
    setCurrentPage(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedTexts]);

  // The inputs follow the filters when they change from outside (the URL, on Back or Forward); typing
  // changes the filters only after the debounce, and they then already match.
  const searchFilter = textOf('search');
  useEffect(() => {
    if (searchFilter === (appliedSearch.current ?? '')) return;
    appliedSearch.current = searchFilter;
    setSearch(searchFilter);
  }, [searchFilter]);
  const textsFilter = JSON.stringify((textFilters ?? []).map((f) => textOf(f.field)));
  useEffect(() => {
    const fromFilters = Object.fromEntries((textFilters ?? []).map((f) => [f.field, textOf(f.field)]));
    const applied = appliedTexts.current;
    if ((textFilters ?? []).every((f) => (applied[f.field]?.trim() ?? '') === fromFilters[f.field])) return;
    appliedTexts.current = fromFilters;
    setTexts(fromFilters);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [textsFilter]);

  useViewInUrl(inUrl, rules, fromUrl, { currentPage, pageSize, sorters, filters }, (view) => {
    setCurrentPage(view.currentPage);
    setPageSize(view.pageSize);
    setSorters(view.sorters);
    setFilters(view.filters, 'replace');
  });

  // The range is the filters' (a range has both days).
  const rangeFrom = dateRange && filterValue(dateRange.from);
  const rangeTo = dateRange && filterValue(dateRange.to);
  const range: DateRangeValue | null = typeof rangeFrom === 'string' && typeof rangeTo === 'string' ? { from: rangeFrom, to: rangeTo } : null;
  const chooseRange = (value: DateRangeValue | null) => {
    if (!dateRange) return;
    setFilters(
      [
        { field: dateRange.from, operator: 'eq', value: value?.from },
        { field: dateRange.to, operator: 'eq', value: value?.to },
      ],
      'merge',
    );
    setCurrentPage(1);
  };

  const filtersKey = JSON.stringify(filters);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => onFiltersChange?.(filters), [filtersKey]);

  // After the first answer, so that the code loads beside the rows, not before them.
  const answered = !tableQuery.isLoading;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => (answered && preload ? whenIdle(() => void preload()) : undefined), [answered]);

  const [selected, setSelected] = useState<Array<string | number>>([]);
  const rows = tableQuery.isError ? [] : result.data;
  const clearSelection = () => setSelected([]);

  // A page past the last (a bookmark to rows since deleted, a page number typed in the URL) shows the last one.
  const { pageCount, total: matchingTotal = 0 } = pagingOf(tableQuery.data, pageSize);
  const pastTheEnd = tableQuery.isSuccess && rows.length === 0 && currentPage > pageCount;
  useEffect(() => {
    if (pastTheEnd) setCurrentPage(pageCount);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pastTheEnd]);

  const hasActions = Boolean(rowActions);
  const selectable = Boolean(bulkActions);
  const extrasWidth = (selectable ? SELECTION_WIDTH : 0) + (hasActions ? ACTIONS_WIDTH : 0) + (rowNumbers ? NUMBER_WIDTH : 0);
  const { shown, folded } = useSameFit(
    useMemo(() => fitColumns(columns, bodyWidth === null ? null : bodyWidth - extrasWidth, screens, EXPAND_WIDTH), [columns, bodyWidth, extrasWidth, screens]),
  );
  const nameColumn = keys[0];

  const sortOrder = (column: DataColumn<T, string>): SortOrder | undefined => {
    const sorter = sorters[0];
    const key = column.sortKey ?? column.dataIndex;
    return column.sortable && sorter?.field === key ? (sorter.order === 'asc' ? 'ascend' : 'descend') : null;
  };

  // The first page: placeholder rows the size of the rows that replace them.
  const firstLoad = tableQuery.isLoading;
  const placeholders = useMemo(
    () => Array.from({ length: Math.min(PLACEHOLDER_ROWS, pageSize) }, (_, i) => ({ [rowKey]: `${PLACEHOLDER_KEY}${i}`, [PLACEHOLDER_KEY]: true }) as unknown as T),
    [rowKey, pageSize],
  );
  const antColumns = useMemo<Array<ColumnType<T>>>(() => {
    const mapped: Array<ColumnType<T>> = shown.map(({ sortable, sortKey, priority: _priority, inlineAction: _inline, responsive: _responsive, ...column }) => ({
      width: columnWidth(column),
      ellipsis: true,
      ...column,
      key: sortKey ?? column.dataIndex,
      dataIndex: column.dataIndex.split('.'),
      ...(sortable ? { sorter: true, sortOrder: sortOrder({ ...column, sortable, sortKey } as DataColumn<T, string>) } : {}),
    }));
    if (rowNumbers) {
      mapped.unshift({ key: '__number', title: '#', width: NUMBER_WIDTH, render: (_: unknown, _record: T, index: number) => (currentPage - 1) * pageSize + index + 1 });
    }
    if (rowActions) {
      mapped.push({
        key: '__actions',
        title: DATA_TABLE.actions,
        fixed: 'right',
        width: ACTIONS_WIDTH,
        render: (_: unknown, record: T) => (
          <RowActionsMenu actions={rowActions(record).filter((a) => !a.hidden)} record={record} name={rowName(nameColumn, record, rowKey)} />
        ),
      });
    }
    return firstLoad ? mapped.map((column) => ({ ...column, render: () => PLACEHOLDER })) : mapped;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown, rowActions, sorters, rowNumbers, currentPage, pageSize, nameColumn, rowKey, firstLoad]);

  // A search or a removable filter narrows the list: an empty answer then says so and offers to clear them.
  const narrowed =
    search !== '' ||
    Object.values(texts).some((t) => t.trim() !== '') ||
    filters.some((f) => 'field' in f && f.field !== 'search' && f.value !== undefined && !permanentFilters?.some((p) => 'field' in p && p.field === f.field));
  const clearFilters = () => {
    setSearch('');
    appliedSearch.current = '';
    setTexts({});
    appliedTexts.current = {};
    setFilters(
      filters.filter((f) => 'field' in f && !permanentFilters?.some((p) => 'field' in p && p.field === f.field)).map((f) => ({ ...f, value: undefined }) as CrudFilter),
      'merge',
    );
    setCurrentPage(1);
  };
  // Nothing is said of an empty list before its first answer (the spinner shows it is loading).
  const emptyState = tableQuery.isLoading ? LOADING : <ListEmpty narrowed={narrowed} onClear={clearFilters} hint={empty?.hint} action={empty?.action} />;

  // The table renders again only when what it shows changes: the page around it renders again as the
  // table is measured, its title takes the h1 and the page's other queries settle, and each time the
  // table rendered every row and cell again. Its rows wait for its width (measured before the browser
  // paints): which columns fit decides the cells, and rows rendered before would be rendered twice.
  const scrollX = bodyWidth !== null && shown.reduce((sum, c) => sum + columnWidth(c), 0) + extrasWidth + (folded.length > 0 ? EXPAND_WIDTH : 0) > bodyWidth;
  const shownRows = !measured ? NOT_YET : firstLoad ? placeholders : rows;
  // What an empty list says matters only when it has no rows; nothing is said before the width is known.
  const emptyText = !measured ? LOADING : shownRows.length === 0 ? emptyState : null;
  const sortBy = useRef(setSorters);
  sortBy.current = setSorters;
  const table = useMemo(
    () => (
      <Table<T>
        rowKey={rowKey}
        dataSource={shownRows}
        columns={antColumns}
        loading={tableQuery.isLoading}
        pagination={false}
        // Sideways scrolling inside the table only where even the key columns do not fit.
        scroll={scrollX ? { x: 'max-content' } : undefined}
        size="middle"
        locale={{ emptyText }}
        expandable={
          folded.length > 0
            ? {
                columnWidth: EXPAND_WIDTH,
                rowExpandable: (record: T) => !isPlaceholder(record),
                expandedRowRender: (record: T, index: number) => <RowDetails columns={folded} record={record} index={index} />,
              }
            : undefined
        }
        rowSelection={
          selectable
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as Array<string | number>),
                getCheckboxProps: (record: T) =>
                  (isPlaceholder(record) ? { disabled: true } : { 'aria-label': DATA_TABLE.selectRow(rowName(nameColumn, record, rowKey)) }) as never,
              }
            : undefined
        }
        // Placeholder rows are for the eye only, like the phone's placeholder cards.
        onRow={(record, index) => (isPlaceholder(record) ? { 'aria-hidden': true } : (onRow?.(record, index) ?? {}))}
        onChange={(_pagination, _filters, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const field = s?.columnKey as string | undefined;
          sortBy.current(s?.order && field ? [{ field, order: s.order === 'ascend' ? 'asc' : 'desc' }] : []);
        }}
      />
    ),
    [rowKey, shownRows, antColumns, tableQuery.isLoading, scrollX, emptyText, folded, selectable, selected, nameColumn, onRow],
  );

  const sortableColumns = columns.filter((c) => c.sortable);
  const currentSort = sorters[0] ? `${sorters[0].field}:${sorters[0].order}` : undefined;

  const error = tableQuery.error;

  const heading = title ? (
    <Typography.Title level={isPageTitle ? 1 : 2} className="data-table-title">
      {title}
    </Typography.Title>
  ) : undefined;

  const visibleActions = (record: T) => (rowActions?.(record) ?? []).filter((a) => !a.hidden);
  const body = renderRows ? (
    <Spin spinning={tableQuery.isLoading}>{rows.length > 0 ? renderRows(rows, visibleActions) : <div className="data-table-empty">{emptyState}</div>}</Spin>
  ) : phone ? (
    <PhoneList<T>
      rows={rows}
      rowKey={rowKey}
      keyColumns={keys}
      otherColumns={columns.filter((c) => !keys.includes(c))}
      rowActions={rowActions}
      selectable={selectable}
      selected={selected}
      onSelect={setSelected}
      loading={tableQuery.isLoading}
      empty={emptyState}
      firstNumber={rowNumbers ? (currentPage - 1) * pageSize + 1 : undefined}
    />
  ) : (
    table
  );

  const card = (
    <Card
      className="data-table"
      styles={{ body: { padding: cardPadding(screens) } }}
      title={heading}
      extra={
        <Space wrap>
          {extra}
          {title !== undefined && isExportableList(resource) && (
            <CsvDownload request={() => exportRequest({ resource, filters: [...(permanentFilters ?? []), ...filters], sorters, meta })} />
          )}
          {choosable.length > 0 && (
            <ColumnChooser columns={choosable.map((c) => ({ name: c.dataIndex, title: c.title as ReactNode }))} hidden={hiddenColumns} onChange={setHiddenColumns} />
          )}
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              tableQuery.refetch();
              onRefresh?.();
            }}
            loading={tableQuery.isFetching}
            aria-label={DATA_TABLE.refresh}
          >
            {DATA_TABLE.refresh}
          </Button>
        </Space>
      }
    >
      <div className="data-table-toolbar">
        {searchable && (
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={searchPlaceholder}
            aria-label={DATA_TABLE.search}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="data-table-search"
          />
        )}
        {selectFilters.map((f) => (
          <Select
            key={f.field}
            aria-label={f.label}
            className="data-table-filter"
            onChange={(value) => {
              setFilters([{ field: f.field, operator: 'eq', value: value === '__all' ? undefined : value }], 'merge');
              setCurrentPage(1);
            }}
            {...(f.clearable
              ? { allowClear: true, placeholder: f.label, value: optionValue(f), options: f.options.map((o) => ({ label: o.label, value: o.value as string })) }
              : {
                  prefix: <Typography.Text type="secondary">{f.label}:</Typography.Text>,
                  value: optionValue(f) ?? '__all',
                  options: [{ label: f.allLabel ?? `All`, value: '__all' }, ...f.options.map((o) => ({ label: o.label, value: o.value as string }))],
                })}
            showSearch={f.showSearch}
            optionFilterProp="label"
            loading={f.loading}
            onOpenChange={f.onOpen && ((open) => open && f.onOpen!())}
          />
        ))}
        {textFilters?.map((f) => (
          <Input
            key={f.field}
            allowClear
            aria-label={f.label}
            placeholder={f.label}
            className="data-table-filter"
            value={texts[f.field] ?? ''}
            onChange={(e) => setTexts((t) => ({ ...t, [f.field]: e.target.value }))}
          />
        ))}
        {dateRange && (
          // Its place is kept while its code loads: arriving, it would push what follows to the next line.
          <Suspense fallback={<Skeleton.Input active block className="data-table-range" />}>
            <DateRangeFilter label={dateRange.label} value={range} onChange={chooseRange} />
          </Suspense>
        )}
        {clearLabel && <Button onClick={clearFilters}>{clearLabel}</Button>}
        {phone && sortableColumns.length > 0 && (
          <Select
            aria-label={DATA_TABLE.sortBy}
            className="data-table-filter"
            allowClear
            placeholder={DATA_TABLE.sortBy}
            value={currentSort}
            options={sortableColumns.flatMap((c) => {
              const field = c.sortKey ?? c.dataIndex;
              return [
                { label: `${c.title as string} ↑`, value: `${field}:asc` },
                { label: `${c.title as string} ↓`, value: `${field}:desc` },
              ];
            })}
            onChange={(value?: string) => {
              const [field, order] = value ? value.split(':') : [];
              setSorters(field ? [{ field, order: order as 'asc' | 'desc' }] : []);
            }}
          />
        )}
      </div>

      {bulkActions && selected.length > 0 && (
        <Alert
          style={{ marginBottom: 12 }}
          type="info"
          message={
            <Space wrap>
              <span>{DATA_TABLE.selected(selected.length)}</span>
              {bulkActions.map((a) => (
                <Button
                  key={a.key}
                  size="small"
                  danger={a.danger}
                  onClick={() =>
                    a.onClick(
                      selected,
                      rows.filter((r) => selected.includes(r[rowKey] as string | number)),
                      clearSelection,
                    )
                  }
                >
                  {a.label}
                </Button>
              ))}
              <Button size="small" type="link" onClick={clearSelection}>
                {DATA_TABLE.clearSelection}
              </Button>
            </Space>
          }
        />
      )}

      {matchingActions && matchingActions.length > 0 && matchingTotal > 0 && (
        <Space wrap style={{ marginBottom: 12 }} data-testid="matching-actions">
          <Typography.Text type="secondary">{DATA_TABLE.matching(matchingTotal)}</Typography.Text>
          {matchingActions.map((a) => (
            <Button key={a.key} size="small" onClick={() => a.onClick(filters, matchingTotal)}>
              {a.label}
            </Button>
          ))}
        </Space>
      )}

      {error && loadErrorBanner && (
        <Alert style={{ marginBottom: 12 }} type="error" showIcon message={loadErrorMessage ?? GENERAL.loadFailed} description={error.message} />
      )}

      <div ref={bodyRef}>{body}</div>
      {/* Not before the first answer: it would say '0 total', and the rows arriving above it would push it down. */}
      {!tableQuery.isLoading && (
        <Pagination
          current={currentPage}
          {...pagingOf(tableQuery.data, pageSize)}
          pageSize={pageSize}
          pageSizes={pageSizes}
          onChange={setCurrentPage}
          onPageSizeChange={(size) => {
            setPageSize(size);
            setCurrentPage(1);
          }}
        />
      )}
    </Card>
  );
  return header ? (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {header}
      {card}
    </Space>
  ) : (
    card
  );
}
