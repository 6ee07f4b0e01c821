/**
 * What an empty list says: 'No data found', then either that the search or filters match nothing
 * (with the button that clears them) or what to do next (with the button that does it).
 */
import { Button, Empty, Typography } from 'antd';
import type { ReactNode } from 'react';
import { DATA_TABLE, GENERAL } from '../../contract';

export interface ListEmptyProps {
  /** A search or a filter narrows the list. */
  narrowed?: boolean;
  onClear?: () => void;
  /** What to do next when nothing narrows the list, and the button that does it. */
  hint?: ReactNode;
  action?: ReactNode;
}

export function ListEmpty({ narrowed = false, onClear, hint, action }: ListEmptyProps) {
  const line = narrowed ? DATA_TABLE.noMatch : hint;
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <>
          <div>{GENERAL.noData}</div>
          {line && <Typography.Text type="secondary">{line}</Typography.Text>}
        </>
      }
    >
      {narrowed ? onClear && <Button onClick={onClear}>{DATA_TABLE.clearFilters}</Button> : action}
    </Empty>
  );
}
