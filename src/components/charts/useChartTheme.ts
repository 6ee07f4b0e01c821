/** What every chart takes from the active Ant Design theme: light or dark, its colours and its text. */
import { ConfigProvider, theme } from 'antd';
import { useContext, useMemo } from 'react';

export function useChartTheme() {
  const { token } = theme.useToken();
  // The merged theme of the providers above: the active theme's algorithm decides light or dark.
  const algorithm = useContext(ConfigProvider.ConfigContext).theme?.algorithm;
  const dark = [algorithm].flat().includes(theme.darkAlgorithm);
  return useMemo(() => {
    const text = { labelFill: token.colorTextSecondary, labelFillOpacity: 1, labelFontFamily: token.fontFamily, labelFontSize: token.fontSizeSM };
    return {
      dark,
      color: token.colorPrimary,
      radius: token.borderRadiusSM,
      // The card behind the chart shows through, in the theme's own background.
      theme: { type: dark ? 'classicDark' : 'classic', view: { viewFill: 'transparent' } },
      axis: {
        x: { ...text, title: false, line: true, lineStroke: token.colorBorder, lineStrokeOpacity: 1, tick: false },
        y: { ...text, title: false, gridStroke: token.colorSplit, gridStrokeOpacity: 1, gridLineDash: [0, 0] },
      },
    };
  }, [dark, token]);
}
