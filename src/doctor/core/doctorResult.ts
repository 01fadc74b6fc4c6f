/** What the user can do about a failed check; the command maps each to a button. */
export type DoctorAction = 'setApiKey' | 'openSettings' | 'selectChatModel' | 'showLogs' | 'retry';

export type DoctorStepName = 'base-url' | 'api-key' | 'models' | 'chat';

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
}
