/**
 * Accessible tab strip (role=tablist / role=tab with aria-selected) in three looks: 'line'
 * (underlined, page-level tabs), 'pill' (small chips for sub-tabs and chart intervals) and 'text'
 * (plain words). The look comes from the calling feature's stylesheet: the strip carries
 * `<prefix>-tabs <prefix>-tabs-<variant>`, each tab `<prefix>-tab` (+ `<prefix>-tab-active`), so
 * each feature keeps its own sizes while the markup and accessibility live here once.
 */
import type { ReactNode } from 'react';

/** One tab. */
export interface SegTab<K extends string> {
  key: K;
  label: ReactNode;
}

/** Props of SegTabs. */
export interface SegTabsProps<K extends string> {
  items: readonly SegTab<K>[];
  active: K;
  onChange: (key: K) => void;
  /** Accessible name of the tablist. */
  label: string;
  /** CSS class prefix of the feature that styles the strip, e.g. 'qt' gives `qt-tabs`, `qt-tab`. */
  classPrefix: string;
  variant?: 'line' | 'pill' | 'text';
  className?: string;
}

/** A horizontal, scrollable tab strip; `onChange(key)` fires on a tab press. */
export function SegTabs<K extends string>({ items, active, onChange, label, classPrefix: p, variant = 'line', className }: SegTabsProps<K>) {
  return (
    <div role="tablist" aria-label={label} className={`${p}-tabs ${p}-tabs-${variant} ${className ?? ''}`}>
      {items.map((it) => (
        <button
          key={it.key}
          type="button"
          role="tab"
          aria-selected={it.key === active}
          className={`${p}-tab${it.key === active ? ` ${p}-tab-active` : ''}`}
          onClick={() => onChange(it.key)}
        >
          {it.label}
        </button>
      ))}
    </div>
  );
}
