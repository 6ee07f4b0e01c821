/**
 * A list on a phone (below 576 px): one card per row with what identifies it and its state (the key
 * columns), their inline actions (an account's Renew beside its expiry), the Actions menu, a labelled
 * checkbox when the list has bulk actions, and every other column under 'More details'.
 */
import type { BaseRecord } from '@refinedev/core';
import { Button, Checkbox, Skeleton, Spin, theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { DATA_TABLE } from '../../contract';
import type { DataColumn, RowAction } from './DataTable';
import { RowActionsMenu, RowDetails, renderCell, rowName } from './cells';

/** Cards drawn while the first page loads. */
const PLACEHOLDER_CARDS = 3;
const placeholder = <Skeleton.Input active size="small" className="data-table-skeleton" />;

export interface PhoneListProps<T extends BaseRecord> {
  rows: T[];
  rowKey: string;
  /** Shown on the card's face; the first names the card. */
  keyColumns: Array<DataColumn<T, string>>;
  /** Under 'More details'. */
  otherColumns: Array<DataColumn<T, string>>;
  rowActions?: (record: T) => Array<RowAction<T>>;
  selectable: boolean;
  selected: Array<string | number>;
  onSelect: (keys: Array<string | number>) => void;
  loading: boolean;
  empty: ReactNode;
  /** The number of the first row ('#' lists), when the list numbers its rows. */
  firstNumber?: number;
}

export function PhoneList<T extends BaseRecord>({
  rows,
  rowKey,
  keyColumns,
  otherColumns,
  rowActions,
  selectable,
  selected,
  onSelect,
  loading,
  empty,
  firstNumber,
}: PhoneListProps<T>) {
  const { token } = theme.useToken();
  const [nameColumn, ...faceColumns] = keyColumns;
  const colours = { '--data-table-border': token.colorBorderSecondary } as CSSProperties;
  const label: CSSProperties = { color: token.colorTextSecondary };
  const keyOf = (record: T) => record[rowKey] as string | number;
  const pageKeys = rows.map(keyOf);
  const allSelected = pageKeys.length > 0 && pageKeys.every((k) => selected.includes(k));

  return (
    <Spin spinning={loading}>
      {/* Also over the placeholder cards (disabled), so it is not inserted above the cards when they arrive. */}
      {selectable && (rows.length > 0 || loading) && (
        <Checkbox
          className="data-table-select-page"
          disabled={rows.length === 0}
          checked={allSelected}
          indeterminate={!allSelected && pageKeys.some((k) => selected.includes(k))}
          onChange={(e) => onSelect(e.target.checked ? [...new Set([...selected, ...pageKeys])] : selected.filter((k) => !pageKeys.includes(k)))}
        >
          {DATA_TABLE.selectPage}
        </Checkbox>
      )}
      {rows.length === 0 && loading ? (
        // The cards of the first page as they will be drawn, each value a skeleton: the same height as the cards that replace them.
        // Its own element (key): the real cards are new nodes, never these moved.
        <ul key="placeholder" className="data-table-cards" aria-hidden="true" style={colours}>
          {Array.from({ length: PLACEHOLDER_CARDS }, (_, i) => (
            <li key={i} className="data-table-card">
              <div className="data-table-card-head">
                {selectable && <Checkbox disabled tabIndex={-1} />}
                <div className="data-table-card-title">{placeholder}</div>
                {rowActions && <Skeleton.Button active size="small" />}
              </div>
              {faceColumns.length > 0 && (
                <dl className="data-table-card-fields">
                  {faceColumns.map((column) => (
                    <div key={column.dataIndex} className="data-table-card-field">
                      <dt style={label}>{column.title as ReactNode}</dt>
                      <dd>{placeholder}</dd>
                    </div>
                  ))}
                </dl>
              )}
              {otherColumns.length > 0 && (
                <div className="data-table-card-details">
                  <div className="data-table-card-summary" style={{ color: token.colorLink }}>
                    {DATA_TABLE.moreDetails}
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : rows.length === 0 ? (
        <div className="data-table-empty">{empty}</div>
      ) : (
        <ul key="rows" className="data-table-cards" data-testid="data-table-cards" style={colours}>
          {rows.map((record, index) => {
            const key = keyOf(record);
            const name = rowName(nameColumn, record, rowKey);
            const actions = (rowActions?.(record) ?? []).filter((a) => !a.hidden);
            return (
              <li key={String(key)} className="data-table-card" data-row-key={String(key)}>
                <div className="data-table-card-head">
                  {selectable && (
                    <Checkbox
                      aria-label={DATA_TABLE.selectRow(name)}
                      checked={selected.includes(key)}
                      onChange={(e) => onSelect(e.target.checked ? [...selected, key] : selected.filter((k) => k !== key))}
                    />
                  )}
                  <div className="data-table-card-title">
                    {firstNumber !== undefined && <span className="data-table-card-number">#{firstNumber + index}</span>}
                    {nameColumn && renderCell(nameColumn, record, index)}
                  </div>
                  {actions.length > 0 && <RowActionsMenu actions={actions} record={record} name={name} />}
                </div>
                {faceColumns.length > 0 && (
                  <dl className="data-table-card-fields">
                    {faceColumns.map((column) => {
                      const inline = column.inlineAction ? actions.find((a) => a.key === column.inlineAction) : undefined;
                      return (
                        <div key={column.dataIndex} className="data-table-card-field">
                          <dt style={label}>{column.title as ReactNode}</dt>
                          <dd>
                            {renderCell(column, record, index)}
                            {inline && (
                              <Button size="small" icon={inline.icon} disabled={inline.disabled} danger={inline.danger} onClick={() => inline.onClick(record)}>
                                {inline.label}
                              </Button>
                            )}
                          </dd>
                        </div>
                      );
                    })}
                  </dl>
                )}
                {otherColumns.length > 0 && (
                  <details className="data-table-card-details">
                    <summary style={{ color: token.colorLink }}>{DATA_TABLE.moreDetails}</summary>
                    <RowDetails columns={otherColumns} record={record} index={index} />
                  </details>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Spin>
  );
}
