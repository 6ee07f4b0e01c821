/**
 * antd's component styles, rendered at build time into the panel's CSS. antd writes a component's
 * style the first time it renders; with the panel's theme configuration (src/theme.ts) that style is
 * the same for every theme, so the build renders each antd component the panel imports once in Node
 * and extracts the styles with antd's cache map: in the browser antd finds each style in the map and
 * skips generating it. A component left out still works: antd
 * generates its style at run time as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { themeConfig } from '../src/theme.js';

const MODULE = 'virtual:antd-styles.css';
const RESOLVED = `\0${MODULE}`;

type Antd = typeof import('antd');

/** The antd components the panel's sources import (the build renders only what the panel can show). */
function importedComponents(dir: string): Set<string> {
  const names = new Set<string>();
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (/\.tsx?$/.test(entry.name)) {
        for (const [, list] of fs.readFileSync(full, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g)) {
          for (const item of list.split(',')) {
            const name = item
              .trim()
              .replace(/^type\s+.*/, '')
              .split(/\s+as\s+/)[0];
            if (name) names.add(name);
          }
        }
      }
    }
  };
  visit(dir);
  return names;
}
type H = typeof import('react').createElement;

/** Props that make a component render the parts that carry its styles (rows, items, children). */
function catalogue(antd: Antd, h: H, wanted: Set<string>): unknown[] {
  const items = [
    { key: 'a', label: 'a' },
    { key: 'b', label: 'b', children: [{ key: 'c', label: 'c' }] },
  ];
  const special: Record<string, unknown> = {
    Table: h(antd.Table, {
      columns: [{ title: 'a', dataIndex: 'a', sorter: true, filters: [] }],
      dataSource: [{ key: 1, a: 1 }],
      rowSelection: {},
      pagination: { total: 100, showSizeChanger: true },
      expandable: { expandedRowRender: () => 'x' },
    }),
    Menu: h(antd.Menu, { items, mode: 'inline' }),
    Layout: h(antd.Layout, null, h(antd.Layout.Sider, { collapsible: true }), h(antd.Layout.Header), h(antd.Layout.Content), h(antd.Layout.Footer)),
    Form: h(antd.Form, null, h(antd.Form.Item, { label: 'a', help: 'b', validateStatus: 'error' }, h(antd.Input))),
    Input: [h(antd.Input), h(antd.Input.Password), h(antd.Input.Search), h(antd.Input.TextArea), h(antd.Input.OTP)],
    Typography: [h(antd.Typography.Title), h(antd.Typography.Text), h(antd.Typography.Paragraph), h(antd.Typography.Link)],
    DatePicker: [h(antd.DatePicker), h(antd.DatePicker.RangePicker)],
    Select: h(antd.Select, { options: [{ value: 1, label: 'a' }], mode: 'multiple' }),
    Descriptions: h(antd.Descriptions, { items: [{ key: 'a', label: 'a', children: 'b' }] }),
    Tabs: h(antd.Tabs, { items: [{ key: 'a', label: 'a', children: 'b' }] }),
    Steps: h(antd.Steps, { items: [{ title: 'a' }] }),
    Dropdown: h(antd.Dropdown, { menu: { items } }, h('span', null, 'a')),
    Tooltip: h(antd.Tooltip, { title: 'a' }, h('span', null, 'a')),
    Popover: h(antd.Popover, { content: 'a' }, h('span', null, 'a')),
    Popconfirm: h(antd.Popconfirm, { title: 'a' }, h('span', null, 'a')),
    Breadcrumb: h(antd.Breadcrumb, { items: [{ title: 'a' }] }),
    List: h(antd.List, { dataSource: [1], renderItem: () => h(antd.List.Item, null, h(antd.List.Item.Meta, { title: 'a' })) }),
    Card: h(antd.Card, { title: 'a', extra: 'b', actions: [h('span', { key: 'a' })] }, h(antd.Card.Meta, { title: 'a' })),
    Statistic: [h(antd.Statistic, { value: 1 }), h(antd.Statistic.Countdown)],
    Collapse: h(antd.Collapse, { items: [{ key: 'a', label: 'a', children: 'b' }] }),
    Radio: [h(antd.Radio), h(antd.Radio.Group, { options: ['a'], optionType: 'button' })],
    Checkbox: [h(antd.Checkbox), h(antd.Checkbox.Group, { options: ['a'] })],
    Avatar: [h(antd.Avatar), h(antd.Avatar.Group)],
    Badge: [h(antd.Badge, { count: 1 }), h(antd.Badge.Ribbon, { text: 'a' })],
    Space: [h(antd.Space), h(antd.Space.Compact)],
    Skeleton: [h(antd.Skeleton), h(antd.Skeleton.Button), h(antd.Skeleton.Input)],
    Anchor: h(antd.Anchor, { items: [{ key: 'a', href: '#a', title: 'a' }] }),
    Modal: h(antd.Modal, { open: true }),
    Drawer: h(antd.Drawer, { open: true }),
    Image: h(antd.Image, { src: 'a' }),
    Upload: h(antd.Upload.Dragger),
    // Preset and status colours are styles of their own, written when a tag first has one.
    Tag: [h(antd.Tag), h(antd.Tag, { color: 'green' }), h(antd.Tag, { color: 'success' })],
  };
  const skip = new Set(['ConfigProvider', 'version', 'theme', 'message', 'notification']);
  const isComponent = (value: unknown) => typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value);
  return Object.entries(antd)
    .filter(([name, value]) => wanted.has(name) && !skip.has(name) && isComponent(value))
    .flatMap(([name, value]) => special[name] ?? h(value as Parameters<H>[0]));
}

/** The CSS of every catalogued antd component's style, with the cache map antd reads in the browser. */
export async function antdStylesCss(sources: string): Promise<string> {
  const [React, { renderToString }, antd, cssinjs] = await Promise.all([import('react'), import('react-dom/server'), import('antd'), import('@ant-design/cssinjs')]);
  const h = React.createElement;
  const cache = cssinjs.createCache();
  for (const element of catalogue(antd, h, importedComponents(sources))) {
    const tree = h(cssinjs.StyleProvider, { cache }, h(antd.ConfigProvider, { theme: themeConfig(null) }, element as never));
    try {
      renderToString(tree);
    } catch {
      // A component that cannot render without its context: its style stays generated at run time.
    }
  }
  return cssinjs.extractStyle(cache, { plain: true, types: 'style' });
}

/** `import 'virtual:antd-styles.css'`: the styles in a build; nothing in development, where antd generates them. */
export const antdStyles = (sources: string): Plugin => {
  let build = false;
  return {
    name: 'antd-styles',
    configResolved: (config) => {
      build = config.command === 'build';
    },
    resolveId: (id) => (id === MODULE ? RESOLVED : null),
    load: async (id) => (id === RESOLVED ? (build ? await antdStylesCss(sources) : '') : null),
  };
};
