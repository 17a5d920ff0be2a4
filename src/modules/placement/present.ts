import type { MoveInput } from './input';

/**
 * A REST move body (`position.before: { type: "space", space: <id> }`) as the move input the
 * services take (`position.before: { kind: "space", id: <id> }`). Anything else is passed on
 * unchanged, for the service to refuse after it has checked who is asking.
 */
export function moveInputFromRest(body: unknown): MoveInput {
  if (!isObject(body) || !isObject(body.position)) return body as MoveInput;
  const position: Record<string, unknown> = { ...body.position };
  for (const side of ['before', 'after'] as const) {
    const pointer = position[side];
    if (isObject(pointer) && Object.keys(pointer).length === 2 && (pointer.type === 'space' || pointer.type === 'collection') && typeof pointer[pointer.type] === 'string') {
      position[side] = { kind: pointer.type, id: pointer[pointer.type] };
    }
  }
  return { ...body, position } as MoveInput;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
