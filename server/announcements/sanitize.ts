/**
 * Announcement HTML as the panel may show it, sanitised when saved and again when served.
 * An allowlist of the text formatting the editor produces: no scripts, no event handlers, no style or
 * class (nothing can leave its box or cover the page), links only to http, https and mailto, opened
 * in a new tab without access to the panel's window.
 */
import sanitizeHtml from 'sanitize-html';

export const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'strike',
  'del',
  'mark',
  'sub',
  'sup',
  'small',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'a',
  'span',
] as const;
export const ALLOWED_SCHEMES = ['http', 'https', 'mailto'] as const;
export const LINK_ATTRIBUTES = ['href', 'title', 'target', 'rel'] as const;

const ABSOLUTE_LINK = new RegExp(`^\\s*(${ALLOWED_SCHEMES.join('|')}):`, 'i');

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: { a: [...LINK_ATTRIBUTES], ol: ['start'] },
  allowedSchemes: [...ALLOWED_SCHEMES],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Their content is not text either: dropped with the tag.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'template',
    'svg',
    'math',
    'title',
    'head',
    'xmp',
    'noembed',
    'noframes',
    'select',
  ],
  transformTags: {
    // Only absolute links to an allowed scheme: a relative or odd href is dropped, the text kept.
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...(ABSOLUTE_LINK.test(attribs.href ?? '') ? { href: attribs.href.trim() } : {}),
        ...(attribs.title ? { title: attribs.title } : {}),
        target: '_blank',
        rel: 'noopener noreferrer nofollow',
      },
    }),
  },
};

// One pass can leave markup the parser reads differently the next time (a <p> inside a <p> closes the
// outer one), so the result is sanitised again until it no longer changes: what is stored is what a
// second save, and the browser, read the same way.
const MAX_PASSES = 5;

export function sanitizeAnnouncementHtml(html: string): string {
  let current = sanitizeHtml(html, OPTIONS).trim();
  for (let pass = 1; pass < MAX_PASSES; pass += 1) {
    const next = sanitizeHtml(current, OPTIONS).trim();
    if (next === current) break;
    current = next;
  }
  return current;
}
