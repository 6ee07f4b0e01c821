/**
 * The list header's Columns button: a checklist of the columns a user may hide (all but the key
 * columns and the actions), applied at once and remembered by useColumnChoice.
 */
import { TableOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Space } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import { DATA_TABLE } from '../../contract';

export interface ChoosableColumn {
  name: string;
  title: ReactNode;
}

export function ColumnChooser({ columns, hidden, onChange }: { columns: ChoosableColumn[]; hidden: string[]; onChange: (hidden: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const content = (
    <Space
      direction="vertical"
      size="small"
      data-testid="column-chooser"
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <Checkbox.Group
        style={{ display: 'grid', gap: 4 }}
        value={columns.filter((c) => !hidden.includes(c.name)).map((c) => c.name)}
        onChange={(shown) => onChange(columns.filter((c) => !shown.includes(c.name)).map((c) => c.name))}
      >
        {columns.map((c, i) => (
          <Checkbox key={c.name} value={c.name} autoFocus={i === 0}>
            {c.title}
          </Checkbox>
        ))}
      </Checkbox.Group>
    </Space>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={DATA_TABLE.columns} content={content} open={open} onOpenChange={setOpen} destroyOnHidden>
      <Button ref={button} icon={<TableOutlined />} aria-haspopup="dialog" aria-expanded={open}>
        {DATA_TABLE.columns}
      </Button>
    </Popover>
  );
}
