/** What the table, the expanded row and the phone card share: a column's value and rendering, row actions. */
import { DownOutlined } from '@ant-design/icons';
import type { BaseRecord } from '@refinedev/core';
import { Button, Descriptions, Dropdown } from 'antd';
import { type ReactNode, useRef } from 'react';
import { DATA_TABLE } from '../../contract';
import type { DataColumn, RowAction } from './DataTable';

/** The record's value at a dotted path ('server.name'). */
export function valueAt(record: BaseRecord, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value == null ? undefined : (value as Record<string, unknown>)[key]), record);
}

/** A column's cell content outside antd's table (its render, or the plain value). */
export function renderCell<T extends BaseRecord>(column: DataColumn<T, string>, record: T, index: number): ReactNode {
  const value = valueAt(record, column.dataIndex);
  if (column.render) {
    const rendered = column.render(value, record, index) as ReactNode | { children: ReactNode };
    return rendered !== null && typeof rendered === 'object' && 'children' in rendered && !('$$typeof' in rendered) ? rendered.children : (rendered as ReactNode);
  }
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** The row's name for screen readers ('Select dealer1'): the first key column's plain value. */
export function rowName<T extends BaseRecord>(column: DataColumn<T, string> | undefined, record: T, rowKey: string): string {
  const value = column ? valueAt(record, column.dataIndex) : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : `#${String(record[rowKey])}`;
}

/** The folded columns of a row as a list of label and value. */
export function RowDetails<T extends BaseRecord>({ columns, record, index }: { columns: Array<DataColumn<T, string>>; record: T; index: number }) {
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2, lg: 3, xxl: 4 }}
      items={columns.map((column) => ({ key: column.dataIndex, label: column.title as ReactNode, children: renderCell(column, record, index) }))}
    />
  );
}

/**
 * The Actions menu of a row. Opened from the keyboard it takes the focus; a chosen action gets the
 * focus back on the button first, so that the dialog it opens returns there when it closes.
 */
export function RowActionsMenu<T extends BaseRecord>({ actions, record, name }: { actions: Array<RowAction<T>>; record: T; name: string }) {
  const button = useRef<HTMLButtonElement>(null);
  return (
    <Dropdown
      trigger={['click']}
      autoFocus
      menu={{
        items: actions.map((a) => ({ key: a.key, label: a.label, icon: a.icon, danger: a.danger, disabled: a.disabled })),
        onClick: ({ key, domEvent }) => {
          // The key that chose the item must not also press the button the focus returns to.
          domEvent.preventDefault();
          domEvent.stopPropagation();
          button.current?.focus();
          actions.find((a) => a.key === key)?.onClick(record);
        },
      }}
    >
      <Button ref={button} size="small" aria-label={DATA_TABLE.rowActions(name)}>
        {DATA_TABLE.actions} <DownOutlined />
      </Button>
    </Dropdown>
  );
}
