/**
 * Renders a body text of the console's content (packages/api content.ts): plain text, never HTML; a blank line
 * separates paragraphs, a line starting with "## " is a heading, and single line breaks inside a paragraph are kept.
 */
import './content.css';

/** One block of a body: a heading or a paragraph. */
export type ContentBlock = { kind: 'heading' | 'paragraph'; text: string };

/** The blocks of `text`, in order (empty blocks dropped). */
export function contentBlocks(text: string): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const chunk of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n');
    let para: string[] = [];
    const flush = () => {
      const p = para.join('\n').trim();
      if (p) out.push({ kind: 'paragraph', text: p });
      para = [];
    };
    for (const line of lines) {
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

/** The text as headings and paragraphs. */
export function ContentText({ text }: { text: string }) {
  return (
    <div className="ex-content-text">{contentBlocks(text).map((b, i) => (b.kind === 'heading' ? <h3 key={i}>{b.text}</h3> : <p key={i}>{b.text}</p>))}</div>
  );
}
