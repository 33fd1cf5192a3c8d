/** Proves which input text is refused: NUL, lone surrogates and bidi controls; everything else (CJK, emoji) passes. */
import { describe, expect, it } from 'vitest';
import { badText } from './text';

describe('badText', () => {
  it('refuses NUL, lone surrogates and bidi controls', () => {
    expect(badText('a\u0000b')).toBe('nul');
    expect(badText('\ud800')).toBe('lone_surrogate');
    expect(badText('x\udc00y')).toBe('lone_surrogate');
    expect(badText('\ud83dx')).toBe('lone_surrogate');
    expect(badText('admin\u202Egnp.exe')).toBe('bidi_control');
    expect(badText('\u2066x\u2069')).toBe('bidi_control');
  });
  it('accepts ordinary text in any script, and emoji (surrogate pairs)', () => {
    for (const s of ['', 'alice@example.com', '张三', 'مرحبا', 'Ünïcödé', '🚀 to the moon', '\ufffd']) expect(badText(s)).toBeNull();
  });
});
