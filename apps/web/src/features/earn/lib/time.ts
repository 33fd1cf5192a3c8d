/** Local "YYYY-MM-DD HH:mm" of a Unix ms time ('--' for 0). */
export function formatTime(ms: number): string {
  if (!ms) return '--';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
