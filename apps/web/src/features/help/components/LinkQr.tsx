/** A link as a QR code drawn in the browser (the `qrcode` package, loaded with the download page only). */
import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** `link` made absolute against `origin` when it is a path of this site ("/x"); an https URL as it is. */
export function absoluteLink(link: string, origin: string): string {
  return /^\/(?!\/)/.test(link) ? new URL(link, origin).href : link;
}

/** The QR code of `text`, `size` CSS pixels square (drawn at twice that), on white in both themes. */
export function LinkQr({ text, size, label }: { text: string; size: number; label: string }) {
  const [url, setUrl] = useState('');
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(text, { width: size * 2, margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } }).then(
      (u) => live && setUrl(u),
      () => live && setUrl(''),
    );
    return () => {
      live = false;
    };
  }, [text, size]);
  return <div style={{ width: size, height: size, background: '#fff', borderRadius: 8 }}>{url && <img src={url} width={size} height={size} alt={label} />}</div>;
}
