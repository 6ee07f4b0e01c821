/** An account's expiry: the date, coloured by how close it is, and what is left. */
import { Space, Tag, Typography, theme } from 'antd';
import { dateOnly } from './index';
import { expiryInfo } from './expiry';

export function ExpiryCell({ value, now }: { value: string | null | undefined; now?: Date }) {
  const info = expiryInfo(value, now);
  const { token } = theme.useToken();
  const color = info.color === 'error' ? token.colorError : info.color === 'warning' ? token.colorWarning : undefined;
  if (info.level === 'none') return <Typography.Text type="secondary">{info.label}</Typography.Text>;
  return (
    <Space size={4} wrap data-testid="expiry-cell" data-level={info.level}>
      <span style={{ color }}>{dateOnly(value)}</span>
      <Tag color={info.color} style={{ marginInlineEnd: 0 }}>
        {info.label}
      </Tag>
    </Space>
  );
}
