/**
 * Accessible tab strip (role=tablist / role=tab with aria-selected) in two looks: 'line' (underlined,
 * page-level tabs) and 'pill' (small chips for sub-tabs and chart intervals).
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
  label: string;
  variant?: 'line' | 'pill' | 'text';
  className?: string;
}

/** A horizontal, scrollable tab strip. */
export function SegTabs<K extends string>({ items, active, onChange, label, variant = 'line', className }: SegTabsProps<K>) {
  return (
    <div role="tablist" aria-label={label} className={`as-tabs as-tabs-${variant} ${className ?? ''}`}>
      {items.map((it) => (
        <button
          key={it.key}
          type="button"
          role="tab"
          aria-selected={it.key === active}
          className={`as-tab${it.key === active ? ' as-tab-active' : ''}`}
          onClick={() => onChange(it.key)}
        >
          {it.label}
        </button>
      ))}
    </div>
  );
}
