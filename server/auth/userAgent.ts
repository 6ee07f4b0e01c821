/**
 * A user agent as people read it: 'Chrome 131 on Windows', 'Safari 17 on iPhone'. The common browsers
 * and systems only; anything else is its first product token, so an odd client still shows something.
 */
const BROWSERS: Array<[name: string, pattern: RegExp]> = [
  // Order matters: Edge, Opera and Samsung say Chrome too, Chrome says Safari, headless says both.
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /SamsungBrowser\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Headless Chrome', /HeadlessChrome\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
  ['curl', /^curl\/(\d+)/],
];

const SYSTEMS: Array<[name: string, pattern: RegExp]> = [
  ['iPhone', /iPhone/],
  ['iPad', /iPad/],
  ['Android', /Android/],
  ['Chrome OS', /CrOS/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['Linux', /Linux|X11/],
];

export function describeUserAgent(userAgent: string | null | undefined): string | null {
  const text = userAgent?.trim();
  if (!text) return null;
  const browser = BROWSERS.map(([name, pattern]) => [name, pattern.exec(text)] as const).find(([, match]) => match);
  const system = SYSTEMS.find(([, pattern]) => pattern.test(text))?.[0];
  const named = browser ? `${browser[0]} ${browser[1]![1]}` : (/^[\w.-]+(?:\/[\w.]+)?/.exec(text)?.[0] ?? text.slice(0, 40));
  return system ? `${named} on ${system}` : named;
}
