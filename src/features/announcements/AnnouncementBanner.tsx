/**
 * The dashboard's recent-announcements banner (docs/domain.md#announcements): at most 3, content cut at 150 characters,
 * dismissal kept for good on this device, 'Expiring Soon' within 24 hours, urgent ones pulse, and a
 * load failure shows nothing. Readers get theirs; admin sees what is live for anyone.
 */
import { CloseOutlined } from '@ant-design/icons';
import { useCustom } from '@refinedev/core';
import { Alert, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { type Announcement, BANNER, previewText } from '../../contract';
import { useCurrentUser } from '../../providers/identity';
import { dismissAnnouncement, dismissedAnnouncements } from './dismissed';
import { ExpiringSoonTag, TYPE_ALERT } from './meta';

/** Enough to fill the banner after the dismissed ones are left out. */
const FETCH = 20;

const PULSE_CSS = `
@keyframes announcement-pulse { 0%, 100% { box-shadow: 0 0 0 0 rgba(255, 77, 79, 0.45); } 50% { box-shadow: 0 0 0 6px rgba(255, 77, 79, 0); } }
.announcement-urgent { animation: announcement-pulse 1.6s ease-in-out infinite; }
@media (prefers-reduced-motion: reduce) { .announcement-urgent { animation: none; outline: 2px solid rgba(255, 77, 79, 0.6); } }
`;

/** The banner's request, one for every caller (the query is shared). */
function useBannerQuery() {
  const { role } = useCurrentUser();
  const admin = role === 'admin';
  const { result, query } = useCustom<{ data?: Announcement[]; announcements?: Announcement[] }>({
    url: admin ? 'announcements/visible' : 'user/announcements/recent',
    method: 'get',
    config: { query: { limit: FETCH } },
    errorNotification: false,
    queryOptions: { enabled: role !== null, retry: false },
  });
  return { admin, result, query };
}

/**
 * Whether the banner knows what it shows (answered, or failed and shows nothing): a page draws what
 * is below the banner only then, so that the banner never arrives above it and pushes it down.
 */
export function useBannerSettled(): boolean {
  return !useBannerQuery().query.isLoading;
}

export function AnnouncementBanner() {
  const { admin, result, query } = useBannerQuery();
  const [dismissed, setDismissed] = useState(dismissedAnnouncements);
  if (query.isError) return null;
  const items = (admin ? result?.data?.data : result?.data?.announcements) ?? [];
  const shown = items.filter((a) => !dismissed.includes(a.id)).slice(0, BANNER.maxItems);
  if (shown.length === 0) return null;

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="announcement-banner">
      <style>{PULSE_CSS}</style>
      {shown.map((a) => (
        <Alert
          key={a.id}
          data-testid="banner-announcement"
          type={TYPE_ALERT[a.type]}
          showIcon
          className={a.priority === 'urgent' ? 'announcement-urgent' : undefined}
          message={
            <Space wrap size={6}>
              <Typography.Text strong>{a.title}</Typography.Text>
              {a.expiring_soon && <ExpiringSoonTag />}
            </Space>
          }
          description={
            <Space direction="vertical" size={2} style={{ width: '100%' }}>
              <span style={{ overflowWrap: 'anywhere' }}>{previewText(a.content, BANNER.contentCut)}</span>
              <Link to={admin ? '/announcements' : `/user-announcements?open=${a.id}`}>Read more</Link>
            </Space>
          }
          closable={{ closeIcon: <CloseOutlined />, 'aria-label': `Dismiss ${a.title}` }}
          onClose={() => setDismissed(dismissAnnouncement(a.id))}
        />
      ))}
    </Space>
  );
}
