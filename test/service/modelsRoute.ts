import { sendJson } from './httpHelpers';
import type { RouteContext } from './routeContext';

/** Unix time the listed models claim to be from (fixed, so answers are stable). */
const modelsCreatedAt = 1763700000;

/** GET /v1/models */
export function listModels(context: RouteContext): void {
  const data = context.scenario.models.map((model) => ({
    id: model.id,
    object: 'model',
    created: model.created ?? modelsCreatedAt,
    owned_by: model.owned_by ?? 'promptreel',
    ...(model.supported_endpoint_types ? { supported_endpoint_types: model.supported_endpoint_types } : {}),
  }));
  sendJson(context.response, 200, { object: 'list', data });
}
