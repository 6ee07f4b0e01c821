/** Announcement pieces for the dashboard and the lists. The rich-text editor is imported from its own file, so Tiptap loads only with the admin form. */
export { AnnouncementBanner, useBannerSettled } from './AnnouncementBanner';
export { AnnouncementContent } from './AnnouncementContent';
export { NotificationsButton } from './NotificationsButton';
export { dismissAnnouncement, dismissedAnnouncements } from './dismissed';
export * from './meta';
