import { z } from 'zod';
import { ENTITY_FORM, FIELD_RULES, THEME_FORM, THEMES } from '../messages';
import { SLUG_PATTERN } from '../slug';
import { boundedInt, switchField } from './configFields';
import { optionalText, requiredText } from './common';
import { labelled } from './fieldMeta';

export const THEME_ALGORITHMS = ['default', 'dark', 'compact'] as const;

const hexColour = z
  .string({ error: THEME_FORM.colorInvalid })
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, THEME_FORM.colorInvalid);

/** The Ant Design tokens a theme sets for everyone (GET /config hands them to the panel). */
export const themeTokens = z.object({
  colorPrimary: hexColour.optional(),
  colorBgLayout: hexColour.optional(),
  borderRadius: boundedInt(FIELD_RULES.between('Border radius', 0, 32), 0, 32).optional(),
  algorithm: z.enum(THEME_ALGORITHMS, { error: THEME_FORM.algorithmInvalid }).optional(),
});
export type ThemeTokensBody = z.infer<typeof themeTokens>;

/** Create and update. Absent tokens keep the stored ones on update; null clears them. */
export const themeBody = z.object({
  name: labelled(requiredText(ENTITY_FORM.nameRequired, 100), 'Name'),
  slug: labelled(requiredText(THEMES.slugRequired, 100).regex(SLUG_PATTERN, THEMES.slugInvalid), 'Slug'),
  description: labelled(optionalText(500), 'Description'),
  is_active: labelled(switchField(FIELD_RULES.boolean('Active')).default(false), 'Active'),
  tokens: themeTokens.nullish(),
});
export type ThemeBody = z.infer<typeof themeBody>;

/** A theme as the API sends it; tokens are those stored (null when none are set). */
export const themeEntity = z.object({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  is_active: z.boolean(),
  tokens: z
    .object({
      colorPrimary: z.string().optional(),
      colorBgLayout: z.string().optional(),
      borderRadius: z.number().optional(),
      algorithm: z.enum(THEME_ALGORITHMS).optional(),
    })
    .nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
