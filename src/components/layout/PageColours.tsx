/**
 * The page behind the panel takes the active theme's colours (outside the frame: sign-in, 404), as do
 * the browser's widgets; whether the site theme is dark is remembered for index.html's first paint.
 */
import { theme } from 'antd';
import { useEffect } from 'react';
import { STORAGE_KEYS } from '../../contract';

export function PageColours({ dark, siteDark }: { dark: boolean; siteDark: boolean }) {
  const { token } = theme.useToken();
  useEffect(() => {
    const { style } = document.body;
    style.backgroundColor = token.colorBgLayout;
    style.color = token.colorText;
    const root = document.documentElement;
    root.style.colorScheme = root.dataset.scheme = dark ? 'dark' : 'light';
  }, [token.colorBgLayout, token.colorText, dark]);
  useEffect(() => localStorage.setItem(STORAGE_KEYS.siteDark, siteDark ? '1' : '0'), [siteDark]);
  return null;
}
