import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { apiRequest } from '../../../lib/api-client';
import { CURRENT_USER_KEY, USER_RENTALS_KEY } from '../../../lib/query-keys';

export async function stopRental(id: number): Promise<RentalView> {
  const res = await apiRequest('PATCH', `/api/rentals/${id}/stop`);
  return (await res.json()) as RentalView;
}

/** On success the rentals list is refreshed, and the balance that got the refund. */
export function useStopRental() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: stopRental,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: USER_RENTALS_KEY }),
        queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
      ]);
    },
  });
}
