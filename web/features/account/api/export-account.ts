import { apiRequest } from '../../../lib/api-client';

/** Fetches the account export and hands it to the browser as a file download. */
export async function downloadAccountData(userId: string): Promise<void> {
  const res = await apiRequest('GET', `/api/users/${userId}/export`);
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'rentgpu-account.json';
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
