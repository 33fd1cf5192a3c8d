/** GET admin/operator/list: every operator (admin role). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PATHS, type Operator } from '@exchange/api';
import { apiGet } from '../../../shared/api';

/** The query of the operator list. */
export const operatorListOptions = queryOptions({ queryKey: ['admin', 'operators'], queryFn: () => apiGet<Operator[]>(ADMIN_PATHS.operatorList) });

/** Every operator. */
export function useOperators() {
  return useQuery(operatorListOptions);
}
