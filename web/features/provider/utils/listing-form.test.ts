import { describe, expect, it } from 'vitest';
import {
  hasRequiredFields,
  initialListingForm,
  missingFields,
  parseAvailableCount,
  toCreateListingPayload,
  withModel,
} from './listing-form';

describe('Add New GPU Listing form', () => {
  it('starts with the listing defaults and nothing required filled in', () => {
    const form = initialListingForm();
    expect(form).toMatchObject({
      bandwidth: '1 Gbps',
      pcieLanes: '16x',
      cooling: 'Air Cooled',
      availableCount: '1',
    });
    expect(hasRequiredFields(form)).toBe(false);
  });

  it('needs model, memory, location and hourly rate', () => {
    const filled = {
      ...initialListingForm(),
      model: 'RTX 4090',
      memory: '24GB',
      location: 'Lisbon, Portugal',
      hourlyRate: '1.20',
    };
    expect(hasRequiredFields(filled)).toBe(true);
    for (const key of ['model', 'memory', 'location', 'hourlyRate'] as const) {
      expect(hasRequiredFields({ ...filled, [key]: key === 'location' ? '   ' : '' })).toBe(false);
    }
  });

  it('says under each required field left empty what it needs', () => {
    expect(missingFields(initialListingForm())).toEqual({
      model: 'Choose a GPU model from the list',
      memory: 'Choose a memory size from the list',
      location: 'Location is required',
      hourlyRate: 'Hourly rate is required',
    });
    const some = { ...initialListingForm(), model: 'T4', memory: '16GB', location: ' ' };
    expect(Object.keys(missingFields(some))).toEqual(['location', 'hourlyRate']);
  });

  it('fills memory, CUDA cores and power from the model without overwriting typed values', () => {
    const picked = withModel(initialListingForm(), 'RTX 4090');
    expect(picked).toMatchObject({ memory: '24GB', cudaCores: '16384', powerConsumption: '450W' });
    const typed = withModel({ ...initialListingForm(), cudaCores: '100' }, 'H100');
    expect(typed).toMatchObject({ memory: '80GB', cudaCores: '100' });
    expect(withModel(initialListingForm(), 'V100').memory).toBe('32GB');
  });

  it('makes the memory follow the model, and the figures the provider did not change', () => {
    const first = withModel({ ...initialListingForm(), memory: '8GB' }, 'RTX 4090');
    expect(first.memory).toBe('24GB');
    const second = withModel(first, 'T4');
    expect(second).toMatchObject({ memory: '16GB', cudaCores: '2560', powerConsumption: '70W' });
    const own = withModel({ ...first, powerConsumption: '400W' }, 'A40');
    expect(own).toMatchObject({ memory: '48GB', cudaCores: '10752', powerConsumption: '400W' });
  });

  it('builds the request body with daily rate, counts and specifications as JSON text', () => {
    const payload = toCreateListingPayload(
      {
        ...withModel(initialListingForm(), 'A40'),
        location: '  Oslo, Norway ',
        hourlyRate: '2.25',
        availableCount: '3',
        additionalSpecs: ' 2x EPYC ',
      },
      7,
    );
    expect(payload).toEqual({
      providerId: 7,
      model: 'A40',
      memory: '48GB',
      cudaCores: 10752,
      location: 'Oslo, Norway',
      bandwidth: '1 Gbps',
      hourlyRate: '2.25',
      dailyRate: '54.00',
      status: 'available',
      availableCount: 3,
      totalCount: 3,
      specifications: JSON.stringify({
        bandwidth: '1 Gbps',
        pcieLanes: '16x',
        powerConsumption: '300W',
        cooling: 'Air Cooled',
        additionalSpecs: '2x EPYC',
      }),
    });
  });

  it('sends null CUDA cores when left empty and at least 1 unit', () => {
    const payload = toCreateListingPayload(
      { ...initialListingForm(), cudaCores: '', availableCount: '0' },
      1,
    );
    expect(payload.cudaCores).toBeNull();
    expect(payload).not.toHaveProperty('hostId');
    expect(toCreateListingPayload({ ...initialListingForm(), hostId: 'h-1' }, 1).hostId).toBe(
      'h-1',
    );
    expect(payload.availableCount).toBe(1);
    expect(parseAvailableCount('abc')).toBe(1);
    expect(parseAvailableCount('12')).toBe(12);
  });
});
