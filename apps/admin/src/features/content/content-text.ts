/**
 * The body text format of the console's content (packages/api content.ts): a blank line separates paragraphs, a line
 * starting with "## " is a heading. The app renders it the same way (apps/web shared/content/ContentText.tsx); the
 * preview uses this copy (the console does not import the app).
 */

/** One block of a body. */
export type ContentBlock = { kind: 'heading' | 'paragraph'; text: string };

/** The blocks of `text`, in order (empty blocks dropped). */
export function contentBlocks(text: string): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const chunk of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    let para: string[] = [];
    const flush = () => {
      const p = para.join('\n').trim();
      if (p) out.push({ kind: 'paragraph', text: p });
      para = [];
    };
    for (const line of chunk.split('\n')) {
      if (line.startsWith('## ')) {
        flush();
        const h = line.slice(3).trim();
        if (h) out.push({ kind: 'heading', text: h });
      } else para.push(line);
    }
    flush();
  }
  return out;
}
