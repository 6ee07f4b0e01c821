/**
 * One toast at a time: a toast opened while another is on screen takes its place (the same notice,
 * its text and type replaced), instead of a second one stacking above it while the first slides out.
 */
import { waitFor } from './dom';
import { type NotificationProvider } from '@refinedev/core';
import { act, render } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it } from 'vitest';
import { useNotificationProvider } from '../../src/providers/notificationProvider';

function renderProvider() {
  const provider: { current: NotificationProvider | null } = { current: null };
  function Capture() {
    provider.current = useNotificationProvider();
    return null;
  }
  const view = render(
    <App notification={{ maxCount: 1 }}>
      <Capture />
    </App>,
  );
  const noticeElement = () => view.baseElement.querySelector('.ant-notification-notice-wrapper');
  const notices = () => [...view.baseElement.querySelectorAll('.ant-notification-notice')].map((n) => n.textContent ?? '');
  return { provider, notices, noticeElement };
}

describe('toasts', { timeout: 30_000 }, () => {
  it('a new toast replaces the one on screen, whatever their types', async () => {
    const { provider, notices, noticeElement } = renderProvider();
    act(() => provider.current!.open({ type: 'success', message: 'Setting updated successfully' }));
    await waitFor(() => expect(notices()).toEqual(['Setting updated successfully']));
    const shown = noticeElement();
    act(() => provider.current!.open({ type: 'error', message: 'Failed to update setting', description: 'Error' }));
    // At once, not after the first has slid away: one notice, the new one, in the same place (the
    // same element: nothing slides out beneath it).
    expect(notices()).toHaveLength(1);
    expect(noticeElement()).toBe(shown);
    expect(notices()[0]).toContain('Failed to update setting');
    expect(notices()[0]).not.toContain('Setting updated successfully');
    act(() => provider.current!.open({ type: 'success', message: 'Setting updated successfully' }));
    expect(notices()).toEqual(['Setting updated successfully']);
  });
});
