/** Display helpers of the console. */

/** A Unix ms time as local "YYYY-MM-DD HH:mm:ss"; '' for 0. */
export function formatTime(ms: number): string {
  if (!ms) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A JSON value of an audit row (before/after) as one line; '' for null. */
export function formatJson(v: unknown): string {
  return v === null || v === undefined ? '' : JSON.stringify(v);
}
