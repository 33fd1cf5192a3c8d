/**
 * A QR code drawn in the browser (the `qrcode` package) as a PNG data: URL: nothing leaves the page for a third-party
 * QR service (the CSP allows img-src data:), and the code is black on a white quiet zone in both themes. Imported by
 * path, not through shared/ui's index, so the package loads only with the pages that draw one (deposit address,
 * Google authenticator secret, invitation link, download links).
 */
import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/**
 * The PNG data: URL of `text`'s QR code, `px` pixels square with a quiet zone of `margin` modules; '' until drawn,
 * for an empty text, or when drawing failed (a text too long for a QR code).
 */
export function useQrDataUrl(text: string, px: number, margin = 2): string {
  const [url, setUrl] = useState('');
  useEffect(() => {
    let live = true;
    if (!text) {
      setUrl('');
      return;
    }
    QRCode.toDataURL(text, { width: px, margin, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } }).then(
      (u) => live && setUrl(u),
      () => live && setUrl(''),
    );
    return () => {
      live = false;
    };
  }, [text, px, margin]);
  return url;
}

/**
 * The QR image of an already drawn data: URL (`url` from useQrDataUrl), `size` CSS pixels square, in a box styled by
 * the caller's `className` (white background and padding); empty while `url` is ''.
 */
export function QrImage({ url, size, label, className }: { url: string; size: number; label: string; className?: string }) {
  return (
    <div className={className} style={{ width: size, height: size }}>
      {url && <img src={url} width={size} height={size} alt={label} />}
    </div>
  );
}

/** The QR code of `text`, `size` CSS pixels square, drawn at twice that for sharp screens. */
export function QrCode({ text, size, label, className, margin }: { text: string; size: number; label: string; className?: string; margin?: number }) {
  return <QrImage url={useQrDataUrl(text, size * 2, margin)} size={size} label={label} className={className} />;
}
