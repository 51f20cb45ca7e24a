// Percentiles and a one-line summary for benchmark samples (milliseconds).
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, rank)];
}

export function summary(samples: number[]): string {
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return `n=${samples.length} p50=${percentile(samples, 50).toFixed(0)} ms p99=${percentile(samples, 99).toFixed(0)} ms mean=${mean.toFixed(0)} ms`;
}
