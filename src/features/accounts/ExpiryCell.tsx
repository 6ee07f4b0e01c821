/**
 * An account's expiry: the date, and what is left in the colour of its level (docs/domain.md#renewals-and-expiry): the error
 * colour when expired, the warning colour at 7 days or fewer, the success colour otherwise. The theme
 * keeps these text colours readable on the page and on their tints (theme.ts).
 */
import { Space, Tag, Typography, theme } from 'antd';
import { dateOnly } from '../../components/display/index';
import { type ExpiryInfo, expiryInfo } from './expiry';

type Tone = Exclude<ExpiryInfo['color'], 'default'>;
const TONE_TOKENS = {
  error: ['colorErrorText', 'colorErrorBg', 'colorErrorBorder'],
  warning: ['colorWarningText', 'colorWarningBg', 'colorWarningBorder'],
  success: ['colorSuccessText', 'colorSuccessBg', 'colorSuccessBorder'],
} as const satisfies Record<Tone, readonly [string, string, string]>;

export function ExpiryCell({ value, now }: { value: string | null | undefined; now?: Date }) {
  const info = expiryInfo(value, now);
  const { token } = theme.useToken();
  if (info.level === 'none' || info.color === 'default') return <Typography.Text type="secondary">{info.label}</Typography.Text>;
  const [text, background, border] = TONE_TOKENS[info.color].map((name) => token[name]);
  return (
    <Space size={4} wrap data-testid="expiry-cell" data-level={info.level}>
      <span style={info.level === 'ok' ? undefined : { color: text }}>{dateOnly(value)}</span>
      <Tag style={{ color: text, background, borderColor: border, marginInlineEnd: 0 }}>{info.label}</Tag>
    </Space>
  );
}
