import { describe, expect, it } from 'vitest';
import type { GpuListingView } from '../../../../shared/contracts/listings';
import type { RentalView } from '../../../../shared/contracts/rentals';
import { editValuesOf, KEEP_HOST, listingChanges } from './listing-edit';
import { endedRentals, rentalPhaseLabel, summarizeProvider } from './provider-summary';

const listing = (over: Partial<GpuListingView>): GpuListingView =>
  ({
    id: 1,
    status: 'available',
    totalCount: 4,
    availableCount: 2,
    hourlyRate: '1.45',
    location: 'San Francisco, USA',
    bandwidth: '10 Gbps',
    ...over,
  }) as GpuListingView;

const rental = (over: Partial<RentalView>): RentalView =>
  ({
    id: 1,
    status: 'active',
    phase: 'ready',
    startTime: '2025-01-01T00:00:00.000Z',
    endTime: null,
    providerEarnings: null,
    ...over,
  }) as RentalView;

describe('provider summary', () => {
  it('adds units, free units (not in maintenance), active rentals and earnings', () => {
    const summary = summarizeProvider(
      [
        listing({ totalCount: 4, availableCount: 2 }),
        listing({ totalCount: 2, availableCount: 0, status: 'rented' }),
        listing({ totalCount: 3, availableCount: 3, status: 'maintenance' }),
      ],
      [
        rental({}),
        rental({ phase: 'provisioning' }),
        rental({ status: 'completed', phase: 'ended', providerEarnings: '10.10' }),
        rental({ status: 'completed', phase: 'ended', providerEarnings: '0.20' }),
        rental({ status: 'cancelled', phase: 'ended', providerEarnings: '0.00' }),
      ],
    );
    expect(summary).toEqual({
      totalGpus: 9,
      availableGpus: 2,
      activeRentals: 2,
      totalRevenue: '10.30',
    });
  });

  it('names phases as a renter sees them and orders history newest first', () => {
    expect(rentalPhaseLabel({ phase: 'provisioning', status: 'active' })).toBe('Provisioning');
    expect(rentalPhaseLabel({ phase: 'ready', status: 'active' })).toBe('Running');
    expect(rentalPhaseLabel({ phase: 'ended', status: 'cancelled' })).toBe('Cancelled');
    const ended = endedRentals([
      rental({ id: 1, status: 'completed', endTime: '2025-01-02T00:00:00.000Z' }),
      rental({ id: 2 }),
      rental({ id: 3, status: 'completed', endTime: '2025-01-03T00:00:00.000Z' }),
    ]);
    expect(ended.map((r) => r.id)).toEqual([3, 1]);
  });
});

describe('listing edit', () => {
  it('sends only what changed', () => {
    const before = listing({ status: 'rented', totalCount: 2, availableCount: 0 });
    expect(
      listingChanges(before, {
        hourlyRate: '1.450',
        location: 'San Francisco, USA ',
        bandwidth: '10 Gbps',
        totalCount: '2',
        status: 'available',
        hostId: KEEP_HOST,
      }),
    ).toEqual({});
    expect(
      listingChanges(before, {
        hourlyRate: '1.99',
        location: 'Oakland, USA',
        bandwidth: '25 Gbps',
        totalCount: '3',
        status: 'maintenance',
        hostId: KEEP_HOST,
      }),
    ).toEqual({
      hourlyRate: '1.99',
      location: 'Oakland, USA',
      bandwidth: '25 Gbps',
      totalCount: 3,
      status: 'maintenance',
    });
  });

  it('changes the host only when one is chosen; a view without the host keeps it', () => {
    const unknown = listing({});
    expect(editValuesOf(unknown).hostId).toBe(KEEP_HOST);
    const values = editValuesOf(unknown);
    expect(listingChanges(unknown, values)).toEqual({});
    expect(listingChanges(unknown, { ...values, hostId: 'h-1' })).toEqual({ hostId: 'h-1' });
    expect(listingChanges(unknown, { ...values, hostId: '' })).toEqual({ hostId: null });

    const placed = { ...listing({}), hostId: 'h-1' };
    expect(editValuesOf(placed).hostId).toBe('h-1');
    expect(listingChanges(placed, editValuesOf(placed))).toEqual({});
    expect(listingChanges(placed, { ...editValuesOf(placed), hostId: '' })).toEqual({
      hostId: null,
    });
    const none = { ...listing({}), hostId: null };
    expect(editValuesOf(none).hostId).toBe('');
    expect(listingChanges(none, { ...editValuesOf(none), hostId: 'h-2' })).toEqual({
      hostId: 'h-2',
    });
  });
});
