import { Ajv } from 'ajv';
import { z } from 'zod';
import { conditionError } from '../../domain/conditions';
import { ValidationError } from '../../domain/errors';

/** A claim: a primitive, an array of primitives, or an object of claims; each with a description. */
type Claim = { type: 'string' | 'number' | 'boolean' | 'integer'; description?: string; enum?: unknown[] } | { type: 'array'; items: Claim; description?: string } | { type: 'object'; properties: Record<string, Claim>; description?: string };

const primitive = z.object({ type: z.enum(['string', 'number', 'integer', 'boolean']), description: z.string().optional(), enum: z.array(z.union([z.string(), z.number(), z.boolean()])).optional() }).strict();
const claim: z.ZodType<Claim> = z.lazy(() =>
  z.union([
    primitive,
    z.object({ type: z.literal('array'), description: z.string(), items: primitive }).strict(),
    z.object({ type: z.literal('object'), description: z.string(), properties: z.record(z.string(), claim), additionalProperties: z.literal(false) }).strict(),
  ]),
) as z.ZodType<Claim>;

/** The shape the platform accepts: an object of visitor claims, with unsigned ones apart. */
const adaptiveShape = z
  .object({
    $schema: z.literal('http://json-schema.org/draft-07/schema#').optional(),
    type: z.literal('object'),
    properties: z.record(z.string(), claim),
    additionalProperties: z.literal(false),
  })
  .strict();

export type AdaptiveSchema = z.output<typeof adaptiveShape>;

export const EMPTY_ADAPTIVE_SCHEMA: AdaptiveSchema = { type: 'object', properties: {}, additionalProperties: false };

/**
 * Checks an adaptive schema twice: a real JSON Schema validator must compile it, and it must be
 * the platform's shape, an object of visitor claims. The errors say where it fails.
 */
export function checkAdaptiveSchema(input: unknown): AdaptiveSchema {
  if (!input || typeof input !== 'object' || !('jsonSchema' in input)) throw new ValidationError('jsonSchema is required: the JSON Schema of the visitor claims', ['jsonSchema']);
  const schema = (input as { jsonSchema: unknown }).jsonSchema;
  try {
    new Ajv({ strict: true, allowUnionTypes: false }).compile(schema as object);
  } catch (error) {
    throw new ValidationError(`jsonSchema is not a valid JSON Schema: ${(error as Error).message}`, ['jsonSchema']);
  }
  const shaped = adaptiveShape.safeParse(schema);
  if (!shaped.success) {
    const issue = shaped.error.issues[0];
    const where = ['jsonSchema', ...issue.path.map(String)].join('.');
    throw new ValidationError(`${where}: ${issue.message} (an adaptive schema is { type: "object", properties: { claim: { type, description } }, additionalProperties: false })`, ['jsonSchema']);
  }
  return shaped.data;
}

export interface TemplateCondition {
  description: string;
  condition: string;
}

/** Example conditions over each claim of the schema, each one a condition the parser accepts. */
export function templateConditions(schema: AdaptiveSchema): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  const visit = (properties: Record<string, Claim>, path: string, label: string) => {
    for (const [name, c] of Object.entries(properties)) {
      if (!/^[A-Za-z_$][\w$]*$/.test(name)) continue;
      const at = `${path}.${name}`;
      const what = `${label}${name}`;
      if (c.type === 'object') visit(c.properties, at, `${what}.`);
      else if (c.type === 'boolean') out.push({ description: `Visitors whose "${what}" is true`, condition: `${at} == true` });
      else if (c.type === 'number' || c.type === 'integer') out.push({ description: `Visitors whose "${what}" is above 0`, condition: `${at} > 0` });
      else if (c.type === 'string') {
        const value = typeof c.enum?.[0] === 'string' ? c.enum[0] : 'value';
        out.push({ description: `Visitors whose "${what}" is "${value}"`, condition: `${at} == ${JSON.stringify(value)}` });
      } else if (c.type === 'array') out.push({ description: `Visitors whose first "${what}" is set`, condition: `${at}[0] != null` });
    }
  };
  visit(schema.properties, 'visitor.claims', '');
  return out.filter((c) => conditionError(c.condition) === null);
}
