/**
 * A QR code of a text drawn in the browser (the `qrcode` package; nothing leaves the page), white quiet zone in both
 * themes. `useQrDataUrl` gives the PNG data: URL ('' until drawn or when drawing failed).
 */
import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** The PNG data: URL of `text`'s QR code at `px` pixels. */
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

/** The QR image, `size` CSS pixels square (drawn at twice that). */
export function QrCode({ text, size, label }: { text: string; size: number; label: string }) {
  const url = useQrDataUrl(text, size * 2);
  return (
    <div className="iv-qr" style={{ width: size, height: size }}>
      {url && <img src={url} width={size} height={size} alt={label} />}
    </div>
  );
}
