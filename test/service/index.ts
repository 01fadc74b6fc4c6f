import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { apiHandler } from './apiServer';
import { cdnHandler } from './cdn';
import type { RecordedRequest } from './httpHelpers';
import type { Scenario, ScenarioPatch } from './scenario';
import { ServiceState } from './serviceState';
import type { ServiceTask } from './videoTasks';
import type { LogEntry } from './keyLog';

export type { RecordedRequest } from './httpHelpers';
export type { CdnScenario, ChatScenario, Fault, ModelEntry, Scenario, ScenarioPatch, VideoScenario } from './scenario';
export { defaultScenario, SCENARIO_PRESETS } from './scenario';
export type { ScenarioPresetName } from './scenario';
export type { ServiceTask } from './videoTasks';
export type { LogEntry as ServiceLogEntry } from './keyLog';
export { patternBytes, sampleBytes, samplePath } from './bytes';
export { FILM_CLIPS, filmClipBytes, filmClipPath, type FilmClip } from './filmClips';
export { samplePng } from './images';
export { isMultipartBody, type MultipartBody, type RecordedFilePart } from './multipart';

export const DEMO_KEY = 'sk-promptreel-demo';

export interface StartOptions {
  /** Default 0 (a free port); always binds 127.0.0.1. */
  port?: number;
  /** Default 0. */
  cdnPort?: number;
  /** Valid Bearer keys; default [DEMO_KEY]. */
  keys?: string[];
  /** A patch on the default scenario, kept across reset(). */
  scenario?: ScenarioPatch;
  /**
   * The API and the CDN over HTTPS, with a certificate for 127.0.0.1 from a root CA of its own (`own-ca`: no system
   * trusts it). With `client-certificate`, the API also demands a client certificate from its client CA, and the CDN
   * asks for one without demanding it: the records (`clientCertificate`) show which connections presented one.
   */
  tls?: 'own-ca' | 'client-certificate';
}

/** A file of test/service/fixtures/tls (made by scripts/make-test-certificates.sh). */
export function tlsFixture(
  name: 'ca.pem' | 'server.pem' | 'server.key' | 'client-ca.pem' | 'client.pem' | 'client.key' | 'client-encrypted.key' | 'client.p12',
): string {
  // Compiled to out/test/service: the fixtures stay in the sources.
  return path.resolve(__dirname, '../../../test/service/fixtures/tls', name);
}

/** The passphrase of client-encrypted.key and client.p12. */
export const TLS_FIXTURE_PASSPHRASE = 'promptreel-test-passphrase';

export interface LocalService {
  /** 'http://127.0.0.1:PORT' (no /v1). */
  readonly baseUrl: string;
  readonly cdnUrl: string;
  readonly demoKey: string;
  /** Every request to the API server (not the control API), in order. */
  readonly requests: RecordedRequest[];
  /** Every request to the CDN (both of its ports). */
  readonly cdnRequests: RecordedRequest[];
  /** The current default scenario (a copy). */
  scenario(): Scenario;
  /** Deep-merges into the default scenario; throws on an invalid patch. */
  setScenario(patch: ScenarioPatch): void;
  /** The key becomes valid; its requests use default + patch (patches for one key merge). */
  setKeyScenario(key: string, patch: ScenarioPatch): void;
  addKey(key: string): void;
  /** Back to the start: scenario (defaults + options.scenario), keys from options, no records, no tasks. */
  reset(): void;
  /** The live server-side task (changing it changes what the service answers). */
  task(id: string): ServiceTask | undefined;
  /** Makes a task without HTTP, e.g. for "track by id" tests. */
  createTask(init?: Partial<ServiceTask>): ServiceTask;
  /** The key's log (default: the demo key's) as `GET /api/log/token` answers it: newest first. */
  keyLog(key?: string): LogEntry[];
  /** Adds an entry to the key's log (default: the demo key's): a charge from another machine, or from days ago. */
  addLogEntry(fields: Partial<LogEntry>, key?: string): LogEntry;
  /** How many times `GET /api/log/token` was asked since the start or the last reset(). */
  logReads(): number;
  /** Sockets currently open to the API server, idle keep-alive ones included. */
  openSockets(): number;
  /** /v1 requests whose response has not closed yet (a stalled or throttled one counts until the client goes). */
  activeRequests(): number;
  /** Filler bytes the last runaway answer wrote before it ended or the client went away. */
  runawayBytesWritten(): number;
  /**
   * Resolves when no socket is open to the API server, closing idle keep-alive ones meanwhile (so only a
   * socket still carrying a response, e.g. a stream the client failed to abort, keeps it waiting); rejects
   * after timeoutMs (default 2000).
   */
  waitForSocketsClosed(timeoutMs?: number): Promise<void>;
  /** Closes both servers and destroys every open socket. */
  stop(): Promise<void>;
}

interface TrackedServer {
  server: http.Server;
  sockets: Set<Socket>;
  /** Sockets carrying a request whose response has not closed. */
  busy: Set<Socket>;
}

function tracked(listener: http.RequestListener, tls?: StartOptions['tls'], demandsCertificate = true): TrackedServer {
  const server = tls
    ? https.createServer(
        {
          cert: fs.readFileSync(tlsFixture('server.pem')),
          key: fs.readFileSync(tlsFixture('server.key')),
          ...(tls === 'client-certificate'
            ? { requestCert: true, rejectUnauthorized: demandsCertificate, ca: fs.readFileSync(tlsFixture('client-ca.pem')) }
            : {}),
        },
        listener,
      )
    : http.createServer(listener);
  const connectionEvent = tls ? 'secureConnection' : 'connection';
  const sockets = new Set<Socket>();
  const busy = new Set<Socket>();
  server.on(connectionEvent, (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    busy.add(request.socket);
    response.once('close', () => busy.delete(request.socket));
  });
  return { server, sockets, busy };
}

function listen(server: http.Server, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(`${server instanceof https.Server ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

function close({ server, sockets }: TrackedServer): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
  });
}

export async function startLocalService(options: StartOptions = {}): Promise<LocalService> {
  const state = new ServiceState(options.keys ?? [DEMO_KEY], options.scenario ?? {});
  let cdnHopUrl = '';
  const api = tracked(apiHandler(state), options.tls);
  const cdn = tracked(
    cdnHandler(state, () => cdnHopUrl),
    options.tls,
    false,
  );
  const cdnHop = tracked(
    cdnHandler(state, () => cdnHopUrl),
    options.tls,
    false,
  );
  const servers = [api, cdn, cdnHop];
  try {
    const baseUrl = await listen(api.server, options.port ?? 0);
    state.cdnUrl = await listen(cdn.server, options.cdnPort ?? 0);
    cdnHopUrl = await listen(cdnHop.server, 0);
    return {
      baseUrl,
      cdnUrl: state.cdnUrl,
      demoKey: DEMO_KEY,
      requests: state.requests,
      cdnRequests: state.cdnRequests,
      scenario: () => state.scenario(),
      setScenario: (patch) => state.setScenario(patch),
      setKeyScenario: (key, patch) => state.setKeyScenario(key, patch),
      addKey: (key) => state.addKey(key),
      reset: () => state.reset(),
      task: (id) => state.tasks.get(id),
      createTask: (init) => state.createTask(init),
      keyLog: (key = DEMO_KEY) => state.logOf(key),
      addLogEntry: (fields, key = DEMO_KEY) => state.appendLog(key, fields),
      logReads: () => state.logReads,
      openSockets: () => api.sockets.size,
      activeRequests: () => state.activeRequests,
      runawayBytesWritten: () => state.runawayBytesWritten,
      waitForSocketsClosed: (timeoutMs = 2000) => waitForNoSockets(api, timeoutMs),
      stop: async () => {
        await Promise.all(servers.map(close));
      },
    };
  } catch (error) {
    await Promise.all(servers.map(close));
    throw error;
  }
}

/** Idle sockets (keep-alive ones, and fresh ones a client opens ahead of use) are closed while waiting. */
function waitForNoSockets({ sockets, busy }: TrackedServer, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      for (const socket of sockets) if (!busy.has(socket)) socket.destroy();
      if (sockets.size === 0) return resolve();
      if (Date.now() - started >= timeoutMs) {
        return reject(new Error(`${sockets.size} socket(s) still open to the local service after ${timeoutMs} ms`));
      }
      setTimeout(check, 10);
    };
    check();
  });
}
