/**
 * Theme slugs: groups of lowercase letters, digits, underscores and colons joined by single
 * hyphens. A slug typed nowhere is generated from the name: lowercased, invalid characters removed,
 * spaces turned into hyphens.
 */
export const SLUG_PATTERN = /^[a-z0-9_:]+(?:-[a-z0-9_:]+)*$/;

export const isValidSlug = (slug: string): boolean => SLUG_PATTERN.test(slug);

export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9_:\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-')
      // Runs of hyphens and hyphens at either end would break the single-hyphen rule.
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '')
  );
}
