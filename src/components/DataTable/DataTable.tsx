/**
 * The one data table every list uses (spec 2, "Shared data table"): server paging with page sizes
 * 10/15/25/50, a 500 ms debounced search, select filters, sortable columns, row checkboxes with bulk
 * actions, row actions, refresh, the pagination bar, 'No data found', and an error banner.
 */
import { DownOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { type BaseRecord, type CrudFilter, type CrudSort, type HttpError, useTable } from '@refinedev/core';
import { Alert, Button, Card, Dropdown, Input, Select, Space, Table, Typography } from 'antd';
import type { ColumnType, SortOrder } from 'antd/es/table/interface';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { DEFAULT_PAGE_SIZE, GENERAL, PAGE_SIZES, SEARCH_DEBOUNCE_MS } from '../../contract';
import { titled } from '../feedback/notify';
import { Pagination } from './Pagination';

export interface DataColumn<T> extends Omit<ColumnType<T>, 'sorter' | 'dataIndex'> {
  dataIndex: string;
  /** Sortable on the server by this key (defaults to dataIndex). */
  sortKey?: string;
  sortable?: boolean;
}

export interface SelectFilter {
  field: string;
  label: string;
  options: Array<{ label: string; value: string | number | boolean }>;
  /** The value shown as "All" (clears the filter). */
  allLabel?: string;
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

export interface DataTableProps<T extends BaseRecord> {
  resource: string;
  columns: Array<DataColumn<T>>;
  title?: ReactNode;
  /** Buttons beside the title (e.g. Add). */
  extra?: ReactNode;
  searchable?: boolean;
  searchPlaceholder?: string;
  selectFilters?: SelectFilter[];
  /** Filters the user cannot remove (e.g. the parent of a sub-list). */
  permanentFilters?: CrudFilter[];
  initialSorters?: CrudSort[];
  rowActions?: (record: T) => Array<RowAction<T>>;
  bulkActions?: Array<BulkAction<T>>;
  pageSizes?: readonly number[];
  defaultPageSize?: number;
  meta?: Record<string, unknown>;
  rowKey?: string;
  /** Shown instead of the message of a failed load (the spec names some). */
  loadErrorMessage?: string;
  /** Also show a failed load as an error toast (the spec names some that appear in both). */
  notifyLoadError?: boolean;
  /** Title of that toast (default 'Error'). */
  loadErrorTitle?: string;
  /** A leading '#' column numbering the rows across pages. */
  rowNumbers?: boolean;
  syncWithLocation?: boolean;
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function DataTable<T extends BaseRecord>({
  resource,
  columns,
  title,
  extra,
  searchable = true,
  searchPlaceholder = 'Search...',
  selectFilters = [],
  permanentFilters,
  initialSorters,
  rowActions,
  bulkActions,
  pageSizes = PAGE_SIZES,
  defaultPageSize = DEFAULT_PAGE_SIZE,
  meta,
  rowKey = 'id',
  loadErrorMessage,
  notifyLoadError = false,
  loadErrorTitle = GENERAL.error,
  rowNumbers = false,
  syncWithLocation = false,
}: DataTableProps<T>) {
  const { tableQuery, result, currentPage, setCurrentPage, pageSize, setPageSize, pageCount, sorters, setSorters, filters, setFilters } =
    useTable<T, HttpError>({
      resource,
      pagination: { currentPage: 1, pageSize: defaultPageSize, mode: 'server' },
      sorters: { initial: initialSorters },
      filters: { permanent: permanentFilters, defaultBehavior: 'merge' },
      syncWithLocation,
      meta,
      queryOptions: { retry: false },
      // Load failures show in the banner above the table, and as a toast only where the spec asks.
      errorNotification: notifyLoadError
        ? (error) => ({ type: 'error', ...titled(loadErrorTitle, loadErrorMessage ?? error?.message ?? GENERAL.loadFailed) })
        : false,
    });

  const [search, setSearch] = useState('');
  const debouncedSearch = useDebounced(search, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    setFilters([{ field: 'search', operator: 'contains', value: debouncedSearch || undefined }], 'merge');
    setCurrentPage(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedSearch]);

  const [selected, setSelected] = useState<Array<string | number>>([]);
  const rows = tableQuery.isError ? [] : result.data;
  const clearSelection = () => setSelected([]);

  const filterValue = (field: string) => {
    const found = filters.find((f) => 'field' in f && f.field === field);
    return found && 'value' in found ? found.value : undefined;
  };

  const antColumns = useMemo<Array<ColumnType<T>>>(() => {
    const sorter = sorters[0];
    const mapped: Array<ColumnType<T>> = columns.map(({ sortable, sortKey, ...column }) => {
      const key = sortKey ?? column.dataIndex;
      const order: SortOrder | undefined = sortable && sorter?.field === key ? (sorter.order === 'asc' ? 'ascend' : 'descend') : null;
      return {
        width: 150,
        ellipsis: true,
        ...column,
        key,
        dataIndex: column.dataIndex.split('.'),
        ...(sortable ? { sorter: true, sortOrder: order } : {}),
      };
    });
    if (rowNumbers) {
      mapped.unshift({ key: '__number', title: '#', width: 60, render: (_: unknown, _record: T, index: number) => (currentPage - 1) * pageSize + index + 1 });
    }
    if (rowActions) {
      mapped.push({
        key: '__actions',
        title: 'Actions',
        fixed: 'right',
        width: 110,
        render: (_: unknown, record: T) => {
          const items = rowActions(record).filter((a) => !a.hidden);
          return (
            <Dropdown
              trigger={['click']}
              menu={{
                items: items.map((a) => ({ key: a.key, label: a.label, icon: a.icon, danger: a.danger, disabled: a.disabled })),
                onClick: ({ key, domEvent }) => {
                  domEvent.stopPropagation();
                  items.find((a) => a.key === key)?.onClick(record);
                },
              }}
            >
              <Button size="small" aria-label="Row actions">
                Actions <DownOutlined />
              </Button>
            </Dropdown>
          );
        },
      });
    }
    return mapped;
  }, [columns, rowActions, sorters, rowNumbers, currentPage, pageSize]);

  const total = result.total ?? 0;
  const error = tableQuery.error;

  return (
    <Card
      title={title}
      extra={
        <Space wrap>
          {extra}
          <Button icon={<ReloadOutlined />} onClick={() => tableQuery.refetch()} loading={tableQuery.isFetching} aria-label="Refresh">
            Refresh
          </Button>
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        {searchable && (
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={searchPlaceholder}
            aria-label="Search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            style={{ width: 260 }}
          />
        )}
        {selectFilters.map((f) => (
          <Select
            key={f.field}
            aria-label={f.label}
            style={{ minWidth: 150 }}
            value={filterValue(f.field) ?? '__all'}
            options={[{ label: f.allLabel ?? `All`, value: '__all' }, ...f.options.map((o) => ({ label: o.label, value: o.value as string }))]}
            onChange={(value) => {
              setFilters([{ field: f.field, operator: 'eq', value: value === '__all' ? undefined : value }], 'merge');
              setCurrentPage(1);
            }}
            prefix={<Typography.Text type="secondary">{f.label}:</Typography.Text>}
          />
        ))}
      </Space>

      {bulkActions && selected.length > 0 && (
        <Alert
          style={{ marginBottom: 12 }}
          type="info"
          message={
            <Space wrap>
              <span>{selected.length} selected</span>
              {bulkActions.map((a) => (
                <Button
                  key={a.key}
                  size="small"
                  danger={a.danger}
                  onClick={() => a.onClick(selected, rows.filter((r) => selected.includes(r[rowKey] as string | number)), clearSelection)}
                >
                  {a.label}
                </Button>
              ))}
              <Button size="small" type="link" onClick={clearSelection}>
                Clear selection
              </Button>
            </Space>
          }
        />
      )}

      {error && (
        <Alert style={{ marginBottom: 12 }} type="error" showIcon message={loadErrorMessage ?? GENERAL.loadFailed} description={error.message} />
      )}

      <Table<T>
        rowKey={rowKey}
        dataSource={rows}
        columns={antColumns}
        loading={tableQuery.isLoading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        size="middle"
        locale={{ emptyText: GENERAL.noData }}
        rowSelection={bulkActions ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as Array<string | number>) } : undefined}
        onChange={(_pagination, _filters, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const field = s?.columnKey as string | undefined;
          setSorters(s?.order && field ? [{ field, order: s.order === 'ascend' ? 'asc' : 'desc' }] : []);
        }}
      />
      <Pagination
        current={currentPage}
        pageCount={pageCount}
        pageSize={pageSize}
        total={total}
        pageSizes={pageSizes}
        onChange={setCurrentPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setCurrentPage(1);
        }}
      />
    </Card>
  );
}
