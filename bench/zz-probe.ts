import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { viteBuild } from '../server/panelBuild';
import { STORAGE_KEYS } from '../src/contract';
import { launchBrowser } from '../tests/e2e/harness';
import { startTestServer } from '../tests/server/harness';
const ROW = '.ant-table-tbody tr.ant-table-row';
const dir = process.env.PANEL_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'probe-'));
if (!process.env.PANEL_DIR) await viteBuild(path.resolve('.'), dir);
console.log('built', dir);
const { ctx, stop } = await startTestServer('sqlite', {}, dir);
const browser = await launchBrowser();
const token = (await ctx.as('admin')).token!;
const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
await context.addInitScript(({ token, keys, row }) => {
  localStorage.setItem(keys.token, token);
  localStorage.setItem(keys.userRole, 'admin');
  (window as any).rowsPainted = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector(row)) return;
      observer.disconnect();
      (window as any).rowsInDom = performance.now();
      requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => resolve(performance.now()); c.port2.postMessage(null); });
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}, { token, keys: STORAGE_KEYS, row: ROW });
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
for (let i = 0; i < 4; i++) {
  if (i === 3) await cdp.send('Profiler.start');
  await page.goto(`${ctx.baseUrl}/users`, { waitUntil: 'commit' });
  const out = await page.evaluate(async () => {
    const painted = await (window as any).rowsPainted;
    const res = performance.getEntriesByType('resource').map((r: any) => `${r.startTime.toFixed(0).padStart(5)}-${r.responseEnd.toFixed(0).padStart(5)} ${r.name.replace(location.origin, '').slice(0, 70)}`);
    const nav: any = performance.getEntriesByType('navigation')[0];
    const marks = performance.getEntriesByType('mark').map((m) => `${m.startTime.toFixed(0)} ${m.name}`);
    return { painted, inDom: (window as any).rowsInDom, nav: `${nav.responseEnd.toFixed(0)} html, dcl ${nav.domContentLoadedEventEnd.toFixed(0)}`, res, marks };
  });
  console.log(`run ${i}: painted ${out.painted.toFixed(0)} inDom ${out.inDom.toFixed(0)} ${out.nav}`);
  if (i === 3) { console.log(out.res.join('\n')); console.log(out.marks.join('\n')); const { profile } = await cdp.send('Profiler.stop'); fs.writeFileSync('/tmp/panel.cpuprofile', JSON.stringify(profile)); }
}
await browser.close(); await stop();
