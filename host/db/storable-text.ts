// PostgreSQL's text and jsonb cannot hold U+0000 nor (jsonb) a lone UTF-16 surrogate. The host refuses both in what
// routes read (reject-malformed-text.ts), but logs keep what was refused too: there each is stored as U+FFFD, so the
// row is kept, not lost.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const storableText = (text: string): string =>
  text.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD");
