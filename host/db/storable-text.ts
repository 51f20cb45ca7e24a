// PostgreSQL's text and jsonb cannot hold U+0000. The host refuses it in what routes read (reject-malformed-text.ts),
// but logs keep what was refused too: there a caller's NUL is stored as U+FFFD, so the row is kept, not lost.
export const storableText = (text: string): string => text.replaceAll("\u0000", "\uFFFD");
