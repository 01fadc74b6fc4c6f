import type { RecoveryAction } from '../../connection/core/recovery';

/** What the user can do about a failed check (the shared vocabulary); the command maps each to a button. */
export type DoctorAction = RecoveryAction;

export type DoctorStepName = 'base-url' | 'api-key' | 'models' | 'chat' | 'account';

export interface DoctorStep {
  name: DoctorStepName;
  ok: boolean;
  /** Plain words: what was checked and what came out. */
  detail: string;
  durationMs?: number;
}

/** The outcome of Test Connection; the command returns it so tests (and callers) can read it. */
export interface DoctorResult {
  ok: boolean;
  /** The normalized base URL, when there is a valid one. */
  baseUrl?: string;
  steps: DoctorStep[];
  /** The one message shown to the user. */
  message: string;
  actions: DoctorAction[];
  /** The HTTP status of the failure, if it was one. */
  status?: number;
  /** The error code the service sent with the failure, if any. */
  code?: string;
  modelCount?: number;
  chatModel?: string;
  /** After a successful test: the key's quota and the prices of the models in use. */
  account?: DoctorAccount;
}

/** What Test Connection says about the key's quota and the models' prices; never a failure of the test. */
export interface DoctorAccount {
  /** `Key quota: $3.20 left of $10.00 …`, `Key quota: not offered by this service.`, or why it could not be read. */
  quota: string;
  /** `Prices: promptreel-chat $3.00 in / $12.00 out per 1M tokens; …`, when the chat or video model has a known price. */
  prices?: string;
  /** The key can no longer pay for requests. */
  keyProblem?: 'expired' | 'used-up';
}
