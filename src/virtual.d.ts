/** Modules the build's plugins provide (vite.config.ts). */
declare module 'virtual:antd-styles.css';
