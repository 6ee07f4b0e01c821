import { describe, expect, it } from 'vitest';
import { ENTITY_FORM, THEME_FORM, THEMES, isValidSlug, slugify } from '../../src/contract';
import { describeEachDatabase } from './harness';

describe('theme slugs (contract)', () => {
  it('accepts groups of lowercase letters, digits, underscores and colons joined by single hyphens', () => {
    for (const ok of ['dark', 'dark-mode', 'a_b:c-d9', 'x', '2024-winter', 'ns:theme-v2']) expect(isValidSlug(ok), ok).toBe(true);
    for (const bad of ['', 'Dark', 'dark mode', 'dark--mode', '-dark', 'dark-', 'dark.mode', 'dárk', 'dark/mode']) {
      expect(isValidSlug(bad), bad).toBe(false);
    }
  });

  it('generates a slug from the name: lowercased, invalid characters removed, spaces to hyphens', () => {
    expect(slugify('Dark Mode')).toBe('dark-mode');
    expect(slugify('My New Theme!')).toBe('my-new-theme');
    expect(slugify('  Ocean   Blue  ')).toBe('ocean-blue');
    expect(slugify('Été 2024')).toBe('t-2024');
    expect(slugify('ns:Theme_v2')).toBe('ns:theme_v2');
    expect(slugify('A - B')).toBe('a-b');
    for (const name of ['Dark Mode', 'x -- y', '  --lead', 'tail-- ', 'Ünïcödé Nàme', 'a\tb\nc', 'ok_1:2']) {
      const slug = slugify(name);
      expect(slug === '' || isValidSlug(slug), `${name} -> ${slug}`).toBe(true);
    }
  });
});

describeEachDatabase('themes', (ctx) => {
  const activeSlugs = async () => (await ctx.db.kysely.selectFrom('themes').select('slug').where('is_active', '=', 1).execute()).map((r) => r.slug);

  it('lists themes under `themes` with meta; the seed has exactly one active theme', async () => {
    const res = await (await ctx.as('admin')).get('/themes');
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('data');
    expect(res.body.meta.total).toBeGreaterThanOrEqual(3);
    expect(res.body.themes.map((t: { slug: string }) => t.slug)).toEqual(expect.arrayContaining(['classic', 'midnight', 'compact-green']));
    expect(res.body.themes.filter((t: { is_active: boolean }) => t.is_active)).toHaveLength(1);
    const filtered = await (await ctx.as('admin')).get('/themes?filter[is_active]=true');
    expect(filtered.body.themes).toHaveLength(1);
    for (const username of ['manager', 'reseller', 'dealer']) {
      expect((await (await ctx.as(username)).get('/themes')).status).toBe(403);
    }
  });

  it('validates name and slug with the contract messages', async () => {
    const admin = await ctx.as('admin');
    const empty = await admin.post('/themes', {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toMatchObject({ name: [ENTITY_FORM.nameRequired], slug: [THEMES.slugRequired] });
    for (const slug of ['Bad Slug', 'a--b', '-a', 'UPPER', 'dot.ted']) {
      const res = await admin.post('/themes', { name: 'X', slug });
      expect(res.status, slug).toBe(422);
      expect(res.body.errors.slug).toEqual([THEMES.slugInvalid]);
    }
    const dup = await admin.post('/themes', { name: 'Copy', slug: 'classic' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.slug).toEqual([THEME_FORM.slugTaken]);
    const badTokens = await admin.post('/themes', { name: 'T', slug: 'bad-tokens', tokens: { colorPrimary: 'blue', algorithm: 'neon' } });
    expect(badTokens.status).toBe(422);
    expect(badTokens.body.errors).toMatchObject({ 'tokens.colorPrimary': [THEME_FORM.colorInvalid], 'tokens.algorithm': [THEME_FORM.algorithmInvalid] });
  });

  it('creates, updates and deletes a theme; tokens are kept unless replaced or cleared', async () => {
    const admin = await ctx.as('admin');
    const created = await admin.post('/themes', {
      name: 'Ocean',
      slug: slugify('Ocean Blue'),
      description: 'Blue accents',
      tokens: { colorPrimary: '#0958d9', borderRadius: '10', algorithm: 'default' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Ocean',
      slug: 'ocean-blue',
      description: 'Blue accents',
      is_active: false,
      tokens: { colorPrimary: '#0958d9', borderRadius: 10, algorithm: 'default' },
    });
    const id = created.body.data.id;

    const renamed = await admin.put(`/themes/${id}`, { name: 'Ocean Deep', slug: 'ocean-deep', description: '' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Ocean Deep', slug: 'ocean-deep', description: null, tokens: { colorPrimary: '#0958d9' } });
    const cleared = await admin.put(`/themes/${id}`, { name: 'Ocean Deep', slug: 'ocean-deep', tokens: null });
    expect(cleared.body.data.tokens).toBeNull();

    expect((await admin.get(`/themes/${id}`)).body.data.slug).toBe('ocean-deep');
    expect((await admin.delete(`/themes/${id}`)).status).toBe(204);
    expect((await admin.get(`/themes/${id}`)).status).toBe(404);
    expect((await admin.put(`/themes/${id}`, { name: 'x', slug: 'x' })).status).toBe(404);

    const actions = await ctx.db.kysely.selectFrom('audit_logs').select('action').where('module', '=', 'themes').where('entity_id', '=', id).execute();
    expect(actions.map((a) => a.action).sort()).toEqual(['create', 'delete', 'update', 'update']);
  });

  it('toggles with an empty body; activating one theme deactivates the others and reaches GET /config', async () => {
    const admin = await ctx.as('admin');
    const midnight = (await admin.get('/themes?filter[search]=midnight')).body.themes[0];
    expect(midnight.is_active).toBe(false);

    // A truly empty POST (no body, no content type).
    const on = await admin.request('POST', `/themes/${midnight.id}/toggle-status`);
    expect(on.status).toBe(200);
    expect(on.body.data.is_active).toBe(true);
    expect(await activeSlugs()).toEqual(['midnight']);
    const config = await ctx.anonymous.get('/config');
    expect(config.body.theme).toMatchObject({ slug: 'midnight', name: 'Midnight', colorPrimary: '#722ed1', algorithm: 'dark' });

    // An empty JSON body counts as no body too.
    const off = await admin.request('POST', `/themes/${midnight.id}/toggle-status`, '', { 'content-type': 'application/json' });
    expect(off.status).toBe(200);
    expect(off.body.data.is_active).toBe(false);
    expect(await activeSlugs()).toEqual([]);
    expect((await ctx.anonymous.get('/config')).body.theme).toBeNull();

    // Creating or saving a theme as active also leaves it the only active one.
    const created = await admin.post('/themes', { name: 'Sunset', slug: 'sunset', is_active: true, tokens: { colorPrimary: '#fa541c' } });
    expect(await activeSlugs()).toEqual(['sunset']);
    const classic = (await admin.get('/themes?filter[search]=classic')).body.themes[0];
    await admin.put(`/themes/${classic.id}`, { name: classic.name, slug: classic.slug, is_active: true });
    expect(await activeSlugs()).toEqual(['classic']);
    expect((await ctx.anonymous.get('/config')).body.theme).toMatchObject({ slug: 'classic', colorPrimary: '#1677ff' });

    expect((await (await ctx.as('manager')).post(`/themes/${created.body.data.id}/toggle-status`)).status).toBe(403);
    expect((await admin.post('/themes/999999/toggle-status')).status).toBe(404);
    const logged = await ctx.db.kysely
      .selectFrom('audit_logs')
      .select('new_values')
      .where('module', '=', 'themes')
      .where('action', '=', 'status')
      .where('entity_id', '=', midnight.id)
      .execute();
    expect(logged.map((l) => JSON.parse(l.new_values!).is_active)).toEqual([true, false]);
  });
});
