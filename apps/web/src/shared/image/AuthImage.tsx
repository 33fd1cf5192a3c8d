/**
 * An image served by an authorized download (OTC payment QR codes, proofs, evidence, chat pictures; customer-service
 * chat pictures): an <img> cannot
 * send the token/userId headers, so the image is fetched with them and shown from an object URL. A URL of another
 * kind (data:, blob:) is shown as it is.
 */
import { useEffect, useState } from 'react';
import { useAppStore } from '../storage';

/** The object URL of the image at `url` fetched with the session headers ('' while loading or on failure). */
export function useAuthImage(url: string): string {
  const [src, setSrc] = useState('');
  useEffect(() => {
    if (!url) return;
    if (/^(data|blob):/.test(url)) {
      setSrc(url);
      return;
    }
    const { token, userId } = useAppStore.getState();
    const ctl = new AbortController();
    let objectUrl = '';
    fetch(url, { headers: { ...(token ? { token } : {}), ...(userId ? { userId } : {}) }, signal: ctl.signal })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((b) => {
        objectUrl = URL.createObjectURL(b);
        setSrc(objectUrl);
      })
      .catch(() => setSrc(''));
    return () => {
      ctl.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return src;
}

/** The image at `url` (an authorized download) with `alt`; opens full size in a new tab on tap. */
export function AuthImage({ url, alt, className }: { url: string; alt: string; className?: string }) {
  const src = useAuthImage(url);
  if (!src) return <span className={`ex-img-placeholder ${className ?? ''}`} role="img" aria-label={alt} />;
  return (
    <a href={src} target="_blank" rel="noreferrer">
      <img src={src} alt={alt} className={className} />
    </a>
  );
}
