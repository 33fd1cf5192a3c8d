/**
 * GET admin/kyc/image: an application's image as an object URL (fetched with the operator's token: images are never
 * at a guessable URL). Each view is audited by the server. The URL is revoked when the image leaves the screen.
 */
import { useEffect, useState } from 'react';
import { ADMIN_PATHS } from '@exchange/api';
import { apiBlobUrl } from '../../../shared/api';

/** The object URL of the image (null while loading), or the error. */
export function useKycImage(imageId: string): { url: string | null; error: Error | null } {
  const [state, setState] = useState<{ url: string | null; error: Error | null }>({ url: null, error: null });
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    apiBlobUrl(ADMIN_PATHS.kycImage, { imageId }).then(
      (u) => {
        url = u;
        if (live) setState({ url: u, error: null });
        else URL.revokeObjectURL(u);
      },
      (e: Error) => live && setState({ url: null, error: e }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [imageId]);
  return state;
}
