/** The expiry cell's colours as drawn: the level's status text colour, readable on its tint and on the page. */
import './dom';
import { render } from '@testing-library/react';
import { ConfigProvider, theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { ExpiryCell } from '../../src/features/accounts/ExpiryCell';
import { TEXT_CONTRAST, contrastRatio, themeConfig } from '../../src/theme';

const NOW = new Date(2026, 2, 10, 12);
const at = (y: number, m: number, d: number) => new Date(y, m - 1, d, 12).toISOString();

/** The computed colour as #rrggbb (jsdom reports rgb()). */
const hex = (css: string) => {
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css);
  return m
    ? `#${m
        .slice(1, 4)
        .map((v) => Number(v).toString(16).padStart(2, '0'))
        .join('')}`
    : css.toLowerCase();
};

describe.each([
  ['default theme', null],
  ['dark theme', { name: 'Midnight', slug: 'midnight', colorPrimary: '#722ed1', algorithm: 'dark' as const }],
])('expiry cell in the %s', (_name, tokens) => {
  const config = themeConfig(tokens);
  const t = theme.getDesignToken(config);
  const cell = (value: string) => {
    const view = render(
      <ConfigProvider theme={config}>
        <ExpiryCell value={value} now={NOW} />
      </ConfigProvider>,
    );
    const root = view.getByTestId('expiry-cell');
    const tag = root.querySelector('.ant-tag') as HTMLElement;
    return {
      level: root.dataset.level,
      label: tag.textContent,
      colour: hex(tag.style.color),
      background: hex(tag.style.background || tag.style.backgroundColor),
      date: root.querySelector('span') as HTMLElement,
    };
  };

  it.each([
    ['expired', at(2026, 3, 1), 'Expired', 'colorErrorText', 'colorErrorBg'],
    ['warning', at(2026, 3, 15), '5 days left', 'colorWarningText', 'colorWarningBg'],
    ['ok', at(2026, 6, 10), '3 months left', 'colorSuccessText', 'colorSuccessBg'],
  ] as const)('%s: says %s in its colour, readable on its tint and on the page', (level, value, label, text, bg) => {
    const drawn = cell(value);
    expect(drawn).toMatchObject({ level, label, colour: t[text].toLowerCase(), background: t[bg].toLowerCase() });
    expect(contrastRatio(drawn.colour, drawn.background)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrastRatio(drawn.colour, t.colorBgContainer)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    // The date itself takes the colour when expired or close to it.
    expect(hex(drawn.date.style.color)).toBe(level === 'ok' ? '' : t[text].toLowerCase());
  });
});
