/**
 * The public API as the reference page and the documentation describe it (spec part 2
 * sections 6, 7, 8 and 9): one list, so the two pages never disagree.
 */
export const PUBLIC_API_BASE_PATH = '/api/v1';
export const PUBLIC_API_BASE_URL = `https://rentgpu.dev${PUBLIC_API_BASE_PATH}`;

export const API_RATE_TIERS = [
  { name: 'Standard', requestsPerHour: 1_000 },
  { name: 'Pro', requestsPerHour: 5_000 },
  { name: 'Enterprise', requestsPerHour: 25_000 },
] as const;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface ApiEndpoint {
  method: HttpMethod;
  path: string;
  summary: string;
  permission: 'read' | 'write';
  body?: string;
  response?: string;
  notes?: string;
}

export const API_ENDPOINTS: ApiEndpoint[] = [
  {
    method: 'GET',
    path: '/gpu-listings',
    summary: 'List the GPUs you can rent right now, with prices and provider details.',
    permission: 'read',
    response: `{
  "gpus": [
    {
      "id": "2f9c6d1e-8a4b-4c3e-9b1a-5d7e0f4a6c21",
      "model": "RTX 4090",
      "memory": "24GB",
      "cudaCores": 16384,
      "location": "Mumbai, India",
      "hourlyRate": "0.80",
      "dailyRate": "19.20",
      "availableCount": 3,
      "provider": { "name": "Western Ghats Compute", "reputation": "4.8" }
    }
  ]
}`,
  },
  {
    method: 'POST',
    path: '/instances',
    summary:
      'Rent a GPU for a number of hours. The cost of the hours and the $2.50 storage add-on move from your balance into escrow.',
    permission: 'write',
    body: `{
  "gpuListingId": "2f9c6d1e-8a4b-4c3e-9b1a-5d7e0f4a6c21",
  "durationHours": 4,
  "sshKeyId": "optional-ssh-key-id"
}`,
    response: `{
  "instance": {
    "id": "9a0b7c3d-1e2f-4a5b-8c6d-7e8f9a0b1c2d",
    "status": "provisioning",
    "sshHost": "gpu-17.mum.rentgpu.dev",
    "sshPort": 22017,
    "sshUsername": "ubuntu",
    "estimatedStartTime": "2026-11-22T10:03:00.000Z"
  }
}`,
    notes:
      'durationHours is a whole number from 1 to 720. Send an Idempotency-Key header so a retried request never rents twice.',
  },
  {
    method: 'GET',
    path: '/instances/{instanceId}',
    summary: 'Read one of your instances: its status and SSH connection details.',
    permission: 'read',
  },
  {
    method: 'PATCH',
    path: '/instances/{instanceId}/stop',
    summary:
      'Stop a running instance. Time used is charged by the second; the rest of the escrow returns to your balance.',
    permission: 'write',
  },
  {
    method: 'DELETE',
    path: '/instances/{instanceId}',
    summary: 'Terminate an instance and release its GPU. Unused time is refunded as with stop.',
    permission: 'write',
  },
  {
    method: 'GET',
    path: '/account',
    summary: 'Your account and its current credit balance in USD.',
    permission: 'read',
  },
  {
    method: 'GET',
    path: '/account/usage',
    summary: 'Your rentals and spending over time, for reports and budgets.',
    permission: 'read',
  },
  {
    method: 'POST',
    path: '/account/credits',
    summary: 'Start a credit purchase for your account.',
    permission: 'write',
  },
];

export const API_STATUS_CODES = [
  { code: 200, meaning: 'OK: the request succeeded.' },
  { code: 400, meaning: 'Bad request: invalid parameters; details name each field.' },
  { code: 401, meaning: 'Unauthorized: the API key is missing, invalid or revoked.' },
  { code: 402, meaning: 'Payment required: your balance does not cover the charge.' },
  { code: 403, meaning: "Forbidden: the key's permissions do not allow this call." },
  { code: 404, meaning: 'Not found: no such resource, or it belongs to another account.' },
  { code: 429, meaning: 'Too many requests: wait for the time in Retry-After.' },
  { code: 500, meaning: 'Server error: something failed on our side; try again.' },
] as const;

export const API_ERROR_EXAMPLE = `{
  "error": {
    "code": "INSUFFICIENT_CREDITS",
    "message": "Your credit balance does not cover this charge.",
    "details": {
      "required": "12.50",
      "available": "4.20",
      "currency": "USD"
    }
  }
}`;
