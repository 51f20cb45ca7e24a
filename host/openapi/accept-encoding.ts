// Picks the content coding for a precompressed body from a request's Accept-Encoding header (br, then gzip).

export type ContentCoding = "br" | "gzip" | "identity";

/** The codings the host precompresses, most preferred first (ties in q-value go to the earlier one). */
export const PRECOMPRESSED_CODINGS: readonly ContentCoding[] = ["br", "gzip"];

/** q-values by coding name, lower-cased; `*` stands for any coding not named. */
function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().split(";");
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key?.trim().toLowerCase() === "q") q = Number.parseFloat(value ?? "");
    }
    weights.set(coding, Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0);
  }
  return weights;
}

/**
 * The coding to answer with: the acceptable `available` coding with the highest q-value, br before gzip on a tie;
 * identity when the header is absent or allows none of them (identity is always served rather than a 406).
 */
export function negotiateContentCoding(
  acceptEncoding: string | undefined | null,
  available: readonly ContentCoding[] = PRECOMPRESSED_CODINGS,
): ContentCoding {
  if (!acceptEncoding) return "identity";
  const weights = parseAcceptEncoding(acceptEncoding);
  const wildcard = weights.get("*") ?? 0;
  let best: ContentCoding = "identity";
  let bestWeight = 0;
  for (const coding of PRECOMPRESSED_CODINGS.filter((c) => available.includes(c))) {
    const weight = weights.get(coding) ?? wildcard;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
