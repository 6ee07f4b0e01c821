/**
 * The Node flags the API process runs with: `npm start` (package.json's start script spells them, and
 * tests/server/apiProcess.test.ts keeps the two equal) and the harnesses that start the product as it does.
 *
 * The old generation is capped at 512 MB, far above what the API keeps (about 35 MB live at a million
 * accounts). Below 1 GB, V8 lets the old generation grow to under twice what its last full collection
 * kept before the next one, where a larger limit lets it grow to four times: a million-row CSV export
 * then peaked at 280 MB of resident memory instead of about 215 (docs/performance.md, "CSV exports").
 */
export const API_NODE_FLAGS = ['--max-old-space-size=512'];
