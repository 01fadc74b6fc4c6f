import type * as http from 'node:http';
import { byteSourceFor, sendNotAVideo, serveBytes } from './bytes';
import { newRequestId } from './ids';
import { closeSignal, pathOf, recordRequest, sendText } from './httpHelpers';
import type { ServiceState } from './serviceState';

/**
 * The object store behind signed result URLs: `/files/<id>.mp4?sig=…` serves the video to anyone (it
 * checks nothing, it records everything, including any Authorization header that leaked). It plays the
 * default scenario's `cdn` section: a chain of 302s whose first hop goes to a second port, expiry, throttle,
 * a redirect into a private network. The same handler listens on both ports; `/hop/<n>/files/…` are the
 * intermediate links of the chain; `/latest/meta-data/…` plays a cloud's metadata endpoint.
 */
export function cdnHandler(state: ServiceState, otherPortUrl: () => string): http.RequestListener {
  return (request, response) => {
    handle(state, otherPortUrl(), request, response).catch(() => response.destroy());
  };
}

async function handle(state: ServiceState, otherPortUrl: string, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const signal = closeSignal(response);
  const record = await recordRequest(request);
  state.cdnRequests.push(record);
  const cdn = state.scenario().cdn;
  const target = request.url ?? '/';
  const path = pathOf(target);
  const query = target.slice(path.length);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    sendXmlError(response, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    return;
  }
  if (path.startsWith('/latest/meta-data/')) {
    sendText(response, 200, METADATA_CREDENTIALS, 'text/plain');
    return;
  }
  const entry = /^\/files\/([^/]+)$/.exec(path);
  const hop = /^\/hop\/(\d+)\/files\/([^/]+)$/.exec(path);
  if (entry) {
    if (cdn.expired === 403) {
      sendXmlError(response, 403, 'AccessDenied', 'Request has expired');
      return;
    }
    if (cdn.expired === 404) {
      sendXmlError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
      return;
    }
    if (cdn.redirectTo !== null) {
      redirect(response, cdn.redirectTo.replace('{port}', new URL(otherPortUrl).port));
      return;
    }
    if (cdn.redirects > 0) {
      redirect(response, `${otherPortUrl}/hop/${cdn.redirects - 1}/files/${entry[1]}${query}`);
      return;
    }
  } else if (hop) {
    const left = Number(hop[1]);
    if (left > 0) {
      redirect(response, `/hop/${left - 1}/files/${hop[2]}${query}`);
      return;
    }
  } else {
    sendXmlError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
    return;
  }
  if (cdn.answer !== 'video') {
    sendNotAVideo(response, cdn.answer, record.key);
    return;
  }
  const file = (entry ?? hop)?.at(-1) ?? '';
  const task = state.tasks.get(file.replace(/\.mp4$/, ''));
  await serveBytes(request, response, byteSourceFor(cdn, task?.clip ?? null), {
    contentLength: cdn.contentLength,
    bytesPerSecond: cdn.bytesPerSecond,
    signal,
    cutAfterBytes: cdn.cutAfterBytes,
  });
}

/** What a metadata endpoint hands anyone who asks from inside: a client that follows a redirect there must never show it. */
export const METADATA_CREDENTIALS = '{"Code":"Success","AccessKeyId":"ASIAPROMPTREELTEST","SecretAccessKey":"metadata-secret-of-this-host","Token":"x"}';

function redirect(response: http.ServerResponse, location: string): void {
  response.writeHead(302, { location, 'content-length': '0' });
  response.end();
}

function sendXmlError(response: http.ServerResponse, status: number, code: string, message: string): void {
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${newRequestId()}</RequestId>` +
    `<HostId>promptreel-local-cdn</HostId></Error>`;
  sendText(response, status, body, 'application/xml');
}
