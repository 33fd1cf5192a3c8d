/** A link of the download page as a QR code (shared/ui/QrCode, loaded with the download page only). */
import { QrCode } from '../../../shared/ui/QrCode';

/** `link` made absolute against `origin` when it is a path of this site ("/x"); an https URL as it is. */
export function absoluteLink(link: string, origin: string): string {
  return /^\/(?!\/)/.test(link) ? new URL(link, origin).href : link;
}

/** The QR code of `text`, `size` CSS pixels square (drawn at twice that), on white in both themes. */
export function LinkQr({ text, size, label }: { text: string; size: number; label: string }) {
  return <QrCode className="help-qr" text={text} size={size} label={label} />;
}
