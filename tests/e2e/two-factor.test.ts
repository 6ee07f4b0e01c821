/**
 * Two-factor sign-in in the browser: a dealer turns it on in its profile (the code computed here from
 * the secret the page shows), signs out, and signs in again with its password and then a code.
 */
import { generate } from 'otplib';
import { expect, it } from 'vitest';
import { TWO_FACTOR, TWO_FACTOR_ENROL_PATH } from '../../src/contract';
import { describeBrowser } from './harness';

describeBrowser('two-factor sign-in in the browser', (ctx) => {
  it('enrols in the profile, signs out, and signs in with a code', async () => {
    const page = await ctx.signIn('dealer2', 'password123');
    await page.goto('/profile');
    await page.getByRole('button', { name: TWO_FACTOR.start }).click();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await page.getByRole('img', { name: TWO_FACTOR.qrAlt }).waitFor();
    // The QR code is a data: image the page's content security policy lets through.
    expect(await page.getByRole('img', { name: TWO_FACTOR.qrAlt }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await page.getByLabel(TWO_FACTOR.codeLabel).fill(await generate({ secret }));
    await page.getByRole('button', { name: TWO_FACTOR.confirm }).click();
    await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    await page.getByRole('button', { name: TWO_FACTOR.recoveryDone }).click();
    await page.getByText(TWO_FACTOR.recoveryLeft(10)).waitFor();

    await page.getByTestId('user-menu').click();
    await page.getByText('Logout').click();
    await page.getByLabel('Username').waitFor();
    await page.getByLabel('Username').fill('dealer2');
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText(TWO_FACTOR.codePrompt).waitFor();
    // No session yet: the panel is not shown before the code.
    expect(await page.getByTestId('panel-name').count()).toBe(0);

    // The code of the next time step: the one used to turn it on is not accepted twice.
    await page.getByLabel(TWO_FACTOR.codeLabel).fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole('button', { name: TWO_FACTOR.verify }).click();
    await page.getByTestId('panel-name').waitFor();
    await page.goto('/profile');
    await page.getByText(TWO_FACTOR.recoveryLeft(10)).waitFor();
    await page.context().close();
  }, 180_000);

  it('takes a user whose role requires it to the enrolment screen, then into the panel once enrolled', async () => {
    const api = async (path: string, body: unknown, token?: string) =>
      fetch(`${ctx.product.baseUrl}/api/v1${path}`, {
        method: path.startsWith('/system-settings') ? 'PUT' : 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      }).then((res) => res.json());
    const { token } = await api('/login', { username: 'admin', password: 'demo-password' });
    await api('/system-settings/two-factor-reseller', { two_factor_reseller: true }, token);
    try {
      const page = await ctx.newPage();
      await page.goto('/login');
      await page.getByLabel('Username').fill('reseller2');
      await page.getByLabel('Password').fill('password123');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`**${TWO_FACTOR_ENROL_PATH}`);
      await page.getByText(TWO_FACTOR.required).first().waitFor();
      // Any other screen leads back here.
      await page.goto('/accounts');
      await page.waitForURL(`**${TWO_FACTOR_ENROL_PATH}`);

      await page.getByRole('button', { name: TWO_FACTOR.start }).click();
      const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
      await page.getByLabel(TWO_FACTOR.codeLabel).fill(await generate({ secret }));
      await page.getByRole('button', { name: TWO_FACTOR.confirm }).click();
      await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
      await page.getByRole('button', { name: TWO_FACTOR.recoveryDone }).click();
      await page.getByTestId('panel-name').waitFor();
      await page.context().close();
    } finally {
      await api('/system-settings/two-factor-reseller', { two_factor_reseller: false }, token);
    }
  }, 180_000);
});
