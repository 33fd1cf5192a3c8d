// The body format of the console's content as the app draws it (packages/api content.ts): "## " headings, blank
// lines between paragraphs, single line breaks kept inside a paragraph.
import { describe, expect, it } from 'vitest';
import { contentBlocks } from './ContentText';

describe('content text', () => {
  it('splits headings and paragraphs', () => {
    expect(contentBlocks('## 1. Scope\n\nFirst line\nsecond line\n\n\n## 2. Risks\nText\r\n\r\nLast')).toEqual([
      { kind: 'heading', text: '1. Scope' },
      { kind: 'paragraph', text: 'First line\nsecond line' },
      { kind: 'heading', text: '2. Risks' },
      { kind: 'paragraph', text: 'Text' },
      { kind: 'paragraph', text: 'Last' },
    ]);
    expect(contentBlocks('')).toEqual([]);
    expect(contentBlocks('<b>not html</b>')).toEqual([{ kind: 'paragraph', text: '<b>not html</b>' }]);
  });
});
