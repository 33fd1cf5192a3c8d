/**
 * A deposit address as a QR code drawn in the browser (the `qrcode` package; nothing leaves the page), and the PNG
 * behind it for "Save QR code". The package loads with the deposit page only.
 */
import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** The PNG data: URL of `text`'s QR code at `px` pixels, '' until drawn (or when drawing failed). */
export function useQrDataUrl(text: string, px: number): string {
  const [url, setUrl] = useState('');
  useEffect(() => {
    let live = true;
    if (!text) {
      setUrl('');
      return;
    }
    QRCode.toDataURL(text, { width: px, margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } }).then(
      (u) => live && setUrl(u),
      () => live && setUrl(''),
    );
    return () => {
      live = false;
    };
  }, [text, px]);
  return url;
}

/** The QR image, `size` CSS pixels square (drawn at twice that for sharp screens); white quiet zone in both themes. */
export function QrImage({ url, size, label }: { url: string; size: number; label: string }) {
  return (
    <div className="wl-qr" style={{ width: size, height: size }}>
      {url && <img src={url} width={size} height={size} alt={label} />}
    </div>
  );
}
