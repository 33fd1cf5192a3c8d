/**
 * An image of the API as the console shows it (OTC payment proofs, appeal evidence and chat images; customer-service
 * chat images). The contract's image URLs are
 * authorized downloads: a URL under /api/ is fetched with the operator's token and shown as an object URL (revoked when
 * the image leaves the screen); any other URL is used as it is.
 */
import { useEffect, useState } from 'react';
import { apiBlobUrl } from './api';

/** The path under /api/ of an image URL (absolute or relative), or null when it is not one of the API's. */
export function apiPathOf(url: string): string | null {
  const m = /^(?:https?:\/\/[^/]+)?\/api\/(.+)$/.exec(url);
  return m ? m[1]! : null;
}

/** The displayable URL of the image (null while loading), or the error. */
export function useApiImage(url: string): { src: string | null; error: Error | null } {
  const path = apiPathOf(url);
  const [state, setState] = useState<{ src: string | null; error: Error | null }>({ src: path === null ? url : null, error: null });
  useEffect(() => {
    if (path === null) return;
    let objectUrl: string | null = null;
    let live = true;
    apiBlobUrl(path).then(
      (u) => {
        objectUrl = u;
        if (live) setState({ src: u, error: null });
        else URL.revokeObjectURL(u);
      },
      (e: Error) => live && setState({ src: null, error: e }),
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path]);
  return path === null ? { src: url, error: null } : state;
}
