/**
 * A QR code drawn in the browser (the `qrcode` package) as a data: URL image: the CSP allows img-src data:, and no
 * secret leaves the page for a third-party QR service. The package loads only with the Google page.
 */
import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** QR image of `text`, `size` CSS pixels square; empty until drawn. */
export function QrCode({ text, size = 168, label }: { text: string; size?: number; label: string }) {
  const [url, setUrl] = useState('');
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(text, { width: size * 2, margin: 1, errorCorrectionLevel: 'M' }).then(
      (u) => live && setUrl(u),
      () => live && setUrl(''),
    );
    return () => {
      live = false;
    };
  }, [text, size]);
  return <div className="sec-qr" style={{ width: size, height: size }}>{url && <img src={url} width={size} height={size} alt={label} />}</div>;
}
