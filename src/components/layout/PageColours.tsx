/** The page behind the panel takes the active theme's colours (outside the frame: sign-in, 404), as do the browser's widgets. */
import { theme } from 'antd';
import { useEffect } from 'react';

export function PageColours({ dark }: { dark: boolean }) {
  const { token } = theme.useToken();
  useEffect(() => {
    const { style } = document.body;
    style.backgroundColor = token.colorBgLayout;
    style.color = token.colorText;
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [token.colorBgLayout, token.colorText, dark]);
  return null;
}
