/**
 * An announcement's HTML as the API serves it (sanitised on save and again on serve, docs/domain.md#announcements),
 * kept inside its box: long words wrap, wide content scrolls, nothing is positioned over the page.
 */
import { Typography } from 'antd';

export function AnnouncementContent({ html }: { html: string }) {
  return (
    <Typography>
      <div
        className="announcement-content"
        style={{ overflowWrap: 'anywhere', overflowX: 'auto', maxWidth: '100%', position: 'relative', contain: 'content' }}
        // The API allows only text formatting and safe links (server/announcements/sanitize.ts).
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </Typography>
  );
}
