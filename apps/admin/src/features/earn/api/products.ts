/** GET admin/earn/products and POST admin/earn/saveProduct (create or change a savings product; audited by the server). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EARN_ADMIN_PATHS, type AdminEarnProduct, type SaveEarnProductBody } from '@exchange/api';
import { apiGet, apiPost } from '../../../shared/api';

/** The products query. */
export const productsOptions = () =>
  queryOptions({ queryKey: ['admin', 'earn', 'products'], queryFn: () => apiGet<AdminEarnProduct[]>(EARN_ADMIN_PATHS.products) });

/** Every savings product. */
export function useEarnProducts() {
  return useQuery(productsOptions());
}

/** Creates (no productId) or changes a product. */
export function saveProduct(body: SaveEarnProductBody): Promise<AdminEarnProduct> {
  return apiPost<AdminEarnProduct>(EARN_ADMIN_PATHS.saveProduct, { ...body });
}

/** The save mutation; refreshes every console query. */
export function useSaveProduct() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: saveProduct, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
