/**
 * The state of one image-upload slot (identity photos, payment QR codes): a picked file is previewed, uploaded with
 * progress, and reported; a failure empties the slot and toasts the spec's "Upload failed" with the reason.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { showToast } from '../api-client';

/** Upload function of a slot: the file and a progress callback (0..1); resolves with the image id. */
export type Uploader = (file: File, onProgress: (fraction: number) => void) => Promise<string>;

/** What a slot needs: how to upload, where the id goes, and the toast texts. */
export interface ImageUploadOptions {
  upload: Uploader;
  /** `id` after a successful upload, `null` when the picture is replaced or its upload failed. */
  onUploaded: (imageId: string | null) => void;
  /** The toast of a refused file before upload (e.g. not an image), or null to go on. */
  refuse?: (file: File) => string | null;
  /** The toast of a failed upload (`err` as the upload threw it). */
  failureText: (err: unknown) => string;
}

/** A slot's state: the input's id and ref, the preview URL, progress in percent (null when idle), done, and `pick`. */
export function useImageUpload(opts: ImageUploadOptions) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState(false);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    opts.onUploaded(null);
    setDone(false);
    const refused = opts.refuse?.(file) ?? null;
    if (refused !== null) {
      showToast(refused, 2000);
      return;
    }
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    try {
      const imageId = await opts.upload(file, (f) => setProgress(Math.round(f * 100)));
      setDone(true);
      opts.onUploaded(imageId);
    } catch (e) {
      setPreview('');
      showToast(opts.failureText(e), 2000);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  return { id, input, preview, progress, done, pick };
}
