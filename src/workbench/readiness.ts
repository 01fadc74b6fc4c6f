import type { ServiceClient } from '../api/serviceClient';
import type { Connection } from '../connection/connection';
import { recoveryForMissing } from '../connection/core/recovery';
import { confirmCharge } from './confirmCharge';
import { confirmService } from './confirmService';
import { showRecovery } from './recoveryActions';

/**
 * For a command the user started: the client, once the service is ready. A service only the folder's settings name is
 * confirmed first (once per origin, asked in a modal); anything else missing is shown with its way out (Set API Key,
 * Open Settings) and undefined returned. `purpose` names what the user started, in their language.
 */
export async function ensureReady(connection: Connection, purpose: string): Promise<ServiceClient | undefined> {
  let readiness = await connection.readiness();
  if (readiness.kind === 'missing' && readiness.missing === 'unconfirmed') {
    if (!(await confirmService(connection.keyStore, purpose))) return undefined;
    readiness = await connection.readiness();
  }
  if (readiness.kind === 'ready') return readiness.client;
  showRecovery('warning', recoveryForMissing(readiness, purpose));
  return undefined;
}

/**
 * For a command that sends a charged request: `ensureReady`, then, when the key is known to be expired or used up,
 * says so before anything is sent (the user may still send: what is known may be out of date); once a budget is spent,
 * asks before sending (BudgetGuard).
 */
export async function ensureReadyToCharge(connection: Connection, purpose: string): Promise<ServiceClient | undefined> {
  const client = await ensureReady(connection, purpose);
  if (!client || !(await confirmCharge(connection.keyHealth.state, connection.clock.now(), purpose))) return undefined;
  if (!(await connection.allowChatCharge())) return undefined;
  return client;
}
