/** Small helpers for the benchmark printouts: median, number formatting, headings. */

/** Median of a non-empty list of numbers (mean of the two middle values for an even count). */
export function median(xs: number[]): number {
  if (xs.length === 0) throw new Error('median of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** A rate or count with thousands separators, rounded to an integer (display only). */
export function fmtInt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** A ratio with 2 decimals and a trailing "x". */
export function fmtRatio(x: number): string {
  return `${x.toFixed(2)}x`;
}

/** Print a section heading. */
export function heading(title: string): void {
  console.log(`\n=== ${title} ${'='.repeat(Math.max(0, 76 - title.length))}`);
}

/** Print rows as an aligned table (first row = header). */
export function table(rows: string[][]): void {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  rows.forEach((r, j) => {
    console.log('  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  '));
    if (j === 0) console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  });
}

/** Run the garbage collector if node was started with --expose-gc (quieter timings). */
export function maybeGc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g !== undefined) g();
}
