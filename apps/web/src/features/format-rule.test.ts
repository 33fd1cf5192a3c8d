// Proves that every screen formats numbers through shared/format's one rule (its module docstring): no feature
// source formats a number itself. It reads every non-test source file under src/features (import.meta.glob ?raw) and fails on
// - float formatting: `.toFixed(`, `.toLocaleString(`, `Intl.NumberFormat`, `Number(..).toString()`;
// - an ungrouped amount in a screen (.tsx): `trimZeros(` or `formatAmount(` (use formatCoin / formatPrice / formatQty),
//   except on a line that fills an input (a `setX(` call, a `value=`, a `placeholder=`, or marked
//   `// format-rule: input`): inputs stay ungrouped;
// - a fiat sign glued to a raw value: `¥{` or `¥${` (use formatCny).
// It also proves, on fixed samples, that the scanner catches each of these forms (so it can fail).
import { describe, expect, it } from 'vitest';

/** Every non-test .ts/.tsx source of the features, as text, by path relative to this folder. */
const SOURCES = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts', '!./**/*.test.tsx', '!./**/test-fixtures.ts'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

const EVERYWHERE: [RegExp, string][] = [
  [/\.toFixed\(/, 'toFixed'],
  [/\.toLocaleString\(/, 'toLocaleString'],
  [/Intl\.NumberFormat/, 'Intl.NumberFormat'],
  [/Number\([^)]*\)\.toString\(/, 'Number(..).toString()'],
];
const SCREENS: [RegExp, string][] = [
  [/\btrimZeros\(/, 'trimZeros in a screen'],
  [/\bformatAmount\(/, 'formatAmount in a screen'],
  [/¥\$?\{/, 'raw fiat value after ¥'],
];
/** A line that puts a value into an input: ungrouped on purpose. */
const INPUT_LINE = /\bset[A-Z]\w*\(|\bvalue=|\bplaceholder=|format-rule: input/;

/** The violations of one file's text: "line: rule". */
export function violations(text: string, screen: boolean): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/^\s*(\/\/|\*|\/\*\*).*$/, '');
    for (const [re, name] of EVERYWHERE) if (re.test(code)) out.push(`${i + 1}: ${name}`);
    if (screen && !INPUT_LINE.test(code)) for (const [re, name] of SCREENS) if (re.test(code)) out.push(`${i + 1}: ${name}`);
  });
  return out;
}

describe('one number format on every screen', () => {
  it('catches each forbidden form and lets inputs and comments through', () => {
    expect(violations('<span>{(+v).toFixed(2)}</span>', true)).toEqual(['1: toFixed']);
    expect(violations('const s = n.toLocaleString("en");', false)).toEqual(['1: toLocaleString']);
    expect(violations('const f = new Intl.NumberFormat("en");', false)).toEqual(['1: Intl.NumberFormat']);
    expect(violations('<b>{Number(balance).toString()}</b>', true)).toEqual(['1: Number(..).toString()']);
    expect(violations('<b>{trimZeros(available)}</b>', true)).toEqual(['1: trimZeros in a screen']);
    expect(violations('<b>{formatAmount(v, 8)}</b>', true)).toEqual(['1: formatAmount in a screen']);
    expect(violations('<b>¥{ad.price}</b>', true)).toEqual(['1: raw fiat value after ¥']);
    expect(violations('onClick={() => setAmount(trimZeros(max))}', true)).toEqual([]);
    expect(violations(' * trimZeros(v) keeps inputs ungrouped', true)).toEqual([]);
    expect(violations('const max = trimZeros(v); // format-rule: input', true)).toEqual([]);
    expect(violations('const plain = (v: string) => formatAmount(v, 18);', false)).toEqual([]);
  });

  it('finds no direct number formatting in any feature', () => {
    const files = Object.keys(SOURCES);
    expect(files.length).toBeGreaterThan(150);
    const found: string[] = [];
    for (const f of files) for (const v of violations(SOURCES[f]!, f.endsWith('.tsx'))) found.push(`${f}:${v}`);
    expect(found).toEqual([]);
  });
});
