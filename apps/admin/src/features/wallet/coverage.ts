/**
 * Coverage of user liabilities by on-chain holdings, exact (no floating point): amounts are the wire's decimal strings
 * with at most 18 places, compared as integers at a common scale.
 */
const SCALE = 18;
const DECIMAL_RE = /^(\d+)(?:\.(\d{1,18}))?$/;

/** A non-negative decimal string as an integer at 18 places, or null when it is not one ('' = unknown). */
export function decimalUnits(s: string): bigint | null {
  const m = DECIMAL_RE.exec(s.trim());
  if (!m) return null;
  return BigInt(m[1]!) * 10n ** BigInt(SCALE) + BigInt((m[2] ?? '').padEnd(SCALE, '0') || '0');
}

/**
 * (hot wallet + deposit addresses) / liabilities as a percentage with 2 places, rounded down ("100.00%"); '' when
 * a figure is unknown or the liabilities are 0.
 */
export function coveragePercent(hotWallet: string, depositAddresses: string, liabilities: string): string {
  const a = decimalUnits(hotWallet);
  const b = decimalUnits(depositAddresses);
  const l = decimalUnits(liabilities);
  if (a === null || b === null || l === null || l === 0n) return '';
  const bp = ((a + b) * 10_000n) / l; // hundredths of a percent
  return `${bp / 100n}.${String(bp % 100n).padStart(2, '0')}%`;
}

/** True when a coverage text of coveragePercent is below 100%. */
export function isShort(coverage: string): boolean {
  const units = decimalUnits(coverage.replace(/%$/, ''));
  return units !== null && units < 100n * 10n ** BigInt(SCALE);
}
