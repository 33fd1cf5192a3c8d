/** Proves the seeded home banners are drawn as SVG with their titles escaped, in both languages. */
import { describe, expect, it } from 'vitest';
import { bannerSvg, BANNERS } from './banners';

describe('seeded banners', () => {
  it('draws banner SVGs with escaped titles in both languages', () => {
    const svg = bannerSvg({ ...BANNERS[0]!, titleEn: 'A <b> & "c"' }, 'en');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('A &lt;b&gt; &amp; &quot;c&quot;');
    expect(bannerSvg(BANNERS[1]!, 'zh')).toContain('SUI 与 TON 现已上线');
  });
});
