// Whether the service accepts a key: one cheap read, the same for `auth login` and `auth status`.
import type { ApiClient } from '../../../api/client.js';

/** Resolves when the key is accepted; otherwise throws the typed error (AuthError for 401/403, NetworkError...). */
export async function checkKey(client: ApiClient): Promise<void> {
  await client.reports.list({ perPage: 10 });
}
