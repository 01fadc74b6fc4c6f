import { sendJson } from './httpHelpers';
import { writeRunaway } from './quirks';
import type { RouteContext } from './routeContext';

/** Unix time the listed models claim to be from (fixed, so answers are stable). */
const modelsCreatedAt = 1763700000;

/** GET /v1/models */
export async function listModels(context: RouteContext): Promise<void> {
  const data = context.scenario.models.map(({ id, created, owned_by, ...rest }) => ({
    id,
    object: 'model',
    created: created ?? modelsCreatedAt,
    owned_by: owned_by ?? 'promptreel',
    // The endpoint types and, where the scenario gives them, the limits some gateways publish.
    ...rest,
  }));
  const padding = context.scenario.modelsPaddingBytes;
  if (padding !== null) {
    // A list with a huge field, sent in pieces without a content length (as a chunked proxy answer would be).
    context.response.writeHead(200, { 'content-type': 'application/json' });
    const prefix = `{"object":"list","data":${JSON.stringify(data)},"padding":"`;
    context.state.runawayBytesWritten = await writeRunaway(context.response, context.signal, prefix, padding, '"}');
    return;
  }
  sendJson(context.response, 200, { object: 'list', data });
}
