/** Modules the build's plugins provide (vite.config.ts), and Vite's `import.meta.glob` (src/resources/index.ts). */
/// <reference types="vite/client" />
declare module 'virtual:antd-styles.css';
