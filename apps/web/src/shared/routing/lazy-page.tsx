/**
 * Lazy route pages (React.lazy) with a chunk-load failure boundary: a chunk that fails or takes
 * longer than 120 s (spec section 9) shows "Failed to load the page" with a Retry button, which
 * re-runs the import. A page's locale namespaces load alongside its code (shared/i18n), so the page
 * renders translated at once. Shared rather than app code because each feature's route file
 * (features/<feature>/routes.tsx) calls it, and features import nothing from app.
 */
import { Component, Suspense, lazy, useLayoutEffect, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../ui';
import { loadNamespaces } from '../i18n';
import { dismissBootShell } from '../ui/boot-shell';

/** Chunk load timeout of the spec (section 9), ms. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A page module: default export is the page component. */
export type PageModule = { default: ComponentType };

/** Rejects when `p` does not settle within `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chunk load timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Dismisses the page's shell (shared/ui/boot-shell.ts) once its children have rendered. */
function DismissBootShell({ children }: { children: ReactNode }) {
  useLayoutEffect(dismissBootShell, []);
  return children;
}

function ChunkFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('common');
  useLayoutEffect(dismissBootShell, []);
  return (
    <div role="alert" style={{ padding: '96px 24px', textAlign: 'center' }}>
      <div style={{ fontSize: 17, fontWeight: 600, marginBottom: 8 }}>{t('chunk.failed')}</div>
      <div className="text-2" style={{ fontSize: 14, marginBottom: 24 }}>
        {t('chunk.hint')}
      </div>
      <Button color="primary" onClick={onRetry} style={{ minWidth: 140 }}>
        {t('retry')}
      </Button>
    </div>
  );
}

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

/** Error boundary around a lazy page; shows the retry screen on failure. */
export class ChunkErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('page failed', error, info.componentStack);
  }
  override render() {
    if (this.state.error) {
      return (
        <ChunkFailed
          onRetry={() => {
            this.props.onRetry();
            this.setState({ error: null });
          }}
        />
      );
    }
    return this.props.children;
  }
}

/**
 * Wraps a dynamic import as a route component with suspense, timeout and retry. Once the page has rendered it
 * dismisses the page's shell (shared/ui/boot-shell.ts), unless `holdsBootShell`: the page dismisses it itself.
 * @param loader the page module's dynamic import
 * @param ns locale namespaces the page needs (loaded in parallel with its code; `common` is always there)
 */
export function lazyPage(loader: () => Promise<PageModule>, ns: readonly string[] = [], opts: { holdsBootShell?: boolean } = {}): ComponentType {
  const make = () =>
    lazy(() =>
      withTimeout(
        Promise.all([loader(), loadNamespaces(ns)]).then(([m]) => m),
        CHUNK_LOAD_TIMEOUT_MS,
      ),
    );
  let Lazy = make();
  function LazyPage() {
    const [, setAttempt] = useState(0);
    const Current = Lazy;
    return (
      <ChunkErrorBoundary
        onRetry={() => {
          Lazy = make();
          setAttempt((a) => a + 1);
        }}
      >
        <Suspense fallback={<PageLoading />}>
          {opts.holdsBootShell ? (
            <Current />
          ) : (
            <DismissBootShell>
              <Current />
            </DismissBootShell>
          )}
        </Suspense>
      </ChunkErrorBoundary>
    );
  }
  return LazyPage;
}
