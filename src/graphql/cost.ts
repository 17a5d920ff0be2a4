import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isListType,
  isObjectType,
  Kind,
  parse,
  type ASTNode,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DEFAULT_PAGE_SIZE, MAX_GRAPHQL_PAGE_SIZE } from '../domain/page';
import { answerFields, startRunningCost, type CostPlan, type SizedList } from './cost-runtime';
import { nestsDeeperThan } from './nesting';

/**
 * What one GraphQL request may ask for, checked before any resolver runs, so that no single request
 * can tie up the process or the database. Each value was measured with `npm run bench:worst`; the
 * README ("GraphQL query limits") gives the figures.
 */
export const QUERY_LIMITS = {
  /** Bytes of the whole request body (Yoga's maxRequestBodySize; it answers 413). */
  requestBytes: 1_000_000,
  /** Bytes of the query text. */
  documentBytes: 100_000,
  /** Lexical tokens of the query text (graphql-js `maxLexicalTokens`). */
  tokens: 5_000,
  /** Aliased fields in the whole document. */
  aliases: 30,
  /** Fields nested inside one another, counting only fields that have a selection. */
  depth: 20,
  /** Braces, brackets and parentheses nested inside one another in the query text, before parsing. */
  nesting: 64,
  /** Length of a list argument that sizes a list, such as `nodes(ids:)`. */
  listArgument: 100,
  /** Fields the largest possible response holds, with connections and writes weighted: see `queryCost`. */
  cost: 20_000,
} as const;

const CODE = 'QUERY_TOO_COMPLEX';

/**
 * A refusal for one of the limits. HTTP 400 whatever the client accepts: `spec: false` keeps Yoga
 * from answering 200 to `application/json` clients, as the GraphQL-over-HTTP spec has it for other
 * validation errors.
 */
export function limitError(message: string, nodes?: readonly ASTNode[]): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code: CODE, http: { status: 400, spec: false } } });
}

/**
 * What a connection counts on top of its fields: the database query it may need. Most connections
 * share one query among all their parents, but `userAccess` and `teamAccess` run one per parent,
 * and the analysis cannot tell them apart. Measured (`npm run bench:worst`, PGlite): such a query
 * took 0.5 ms, as long as about 4.6 fields of the dearest read (108 µs).
 */
export const CONNECTION_COST = 4;

/**
 * What one write counts, in fields: a mutation, and each item of the lists in its input. Measured
 * the same way: granting access to one user or team took 1.2 ms on PGlite (0.8 ms on PostgreSQL),
 * as long as about 11 fields of the dearest read.
 */
export const WRITE_COST = 12;

type Fields = Map<string, FieldNode[]>;

/**
 * What a field's definition says about its cost (Pothos `extensions: { cost: ... }`):
 * - `weight`: what reading the field costs beyond the one it counts, in fields (rendering a page's
 *   markdown, say; see `npm run bench:worst`);
 * - `expected`: for a list whose length depends on the data (neither a connection nor sized by an
 *   argument), the items it is counted at before execution, 50 by default; its real length is
 *   counted when it resolves (see cost-runtime.ts);
 * - `group`: lists of one group nested in one another share their items (the pages of one page
 *   tree, the sections of one site): inside a list of its group, such a list counts one item per
 *   parent before execution, and its real length when it resolves.
 */
export interface CostHint {
  weight?: number;
  expected?: number;
  group?: string;
}

/** A field's `extensions` carrying its cost hint. */
export const costExtensions = (hint: CostHint) => ({ cost: hint });

/**
 * Weights, in fields of the dearest plain read (about 108 µs, see CONNECTION_COST). Measured on
 * 400 pages of 900 bytes: a page's document took 142 µs, its markdown (stored as such, read with its
 * page) under 10 µs more than its title. A search statement took about 6 ms of the database
 * (`npm run bench`: 166 searches a second at most, on 2 cores).
 */
export const WEIGHTS = { document: 2, markdown: 1, diff: 2, search: 50 } as const;

export const costHint = (field: GraphQLField<unknown, unknown>): CostHint | undefined => field.extensions?.cost as CostHint | undefined;


/** Items of every list in an argument value, input objects and nested lists included. */
function inputItems(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + 1 + inputItems(item), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + inputItems(v), 0);
  return 0;
}

/**
 * The cost of an operation: how many fields the largest response it could get would hold, before
 * any of it runs. Every field of every object counts one, a leaf as much as an object, so a field
 * inside a list counts once per item the list may hold:
 *
 * - a list with `first` or `last` holds that many items (at most 100); without either, 50;
 * - a list inside a connection (its `edges`) holds the page size of the connection field;
 * - a list sized by a list argument, `nodes(ids:)`, holds one item per id;
 * - any other list of objects holds 50.
 *
 * Variables count at their values in this request. Fragments, inline fragments and aliases count
 * as graphql-js executes them: selections of the same response key merge, each alias is its own
 * key, and on an interface or union each item costs what the dearest of its possible types costs.
 * `__schema` and `__type` count one each: graphql-js's MaxIntrospectionDepthRule bounds what is
 * under them, and it is answered from memory.
 *
 * A connection also counts `CONNECTION_COST` for its database query. A mutation also counts
 * `WRITE_COST` for itself and as much again for each item of every list in its input (the users
 * and teams of a grant, say), at any depth of input objects.
 */
export class CostAnalysis {
  private readonly memo = new Map<string, number>();
  private readonly setIds = new WeakMap<SelectionSetNode, number>();
  private readonly collected = new WeakMap<SelectionSetNode, Map<string, Fields>>();
  private readonly connections = new Map<string, boolean>();
  /** The lists of the document sized only by the data, by field node: see SizedList. */
  readonly sized = new Map<FieldNode, SizedList>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
    private readonly variables: Record<string, unknown>,
  ) {}

  /** Fields in the largest response to `selectionSet` on one object of `type`. */
  objectCost(type: GraphQLObjectType, sets: readonly SelectionSetNode[], pageSize: number | null, groups: readonly string[] = []): number {
    const key = `${type.name}:${pageSize}:${sets.map((s) => this.idOf(s)).join(',')}:${groups.join(',')}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const writes = type === this.schema.getMutationType();
    let cost = 0;
    for (const nodes of this.merge(type, sets).values()) {
      cost += 1;
      const node = nodes[0];
      const field = type.getFields()[node.name.value] as GraphQLField<unknown, unknown> | undefined;
      // __typename is a leaf; __schema and __type are answered from memory, see above.
      if (!field) continue;
      const hint = costHint(field);
      cost += hint?.weight ?? 0;
      const named = getNamedType(field.type);
      const connection = this.isConnection(named);
      // Arguments are read only where they size the answer: the cost then depends on those
      // variables alone, and is remembered for the document (see queryCost).
      const args = writes || connection || isListType(getNullableType(field.type)) ? this.argumentsOf(field, node) : {};
      if (writes) cost += WRITE_COST * (1 + (args === null ? 0 : inputItems(args)));
      const subSets: SelectionSetNode[] = [];
      for (const n of nodes) if (n.selectionSet) subSets.push(n.selectionSet);
      if (subSets.length === 0) continue;
      const sized = this.sizedByData(field, pageSize);
      const inner = sized && hint?.group && !groups.includes(hint.group) ? [...groups, hint.group] : groups;
      const items = sized ? (hint?.group && groups.includes(hint.group) ? 1 : (hint?.expected ?? DEFAULT_PAGE_SIZE)) : this.listSize(field, args, pageSize);
      if (items === 0) continue;
      const possible = isAbstractType(named) ? this.schema.getPossibleTypes(named) : isObjectType(named) ? [named] : [];
      let dearest = 0;
      for (const t of possible) dearest = Math.max(dearest, this.objectCost(t, subSets, connection ? this.pageSize(args) : null, inner));
      const itemCost = (connection ? CONNECTION_COST : 0) + dearest;
      if (sized) for (const n of nodes) this.noteSized(n, items, itemCost);
      cost += items * itemCost;
    }
    this.memo.set(key, cost);
    return cost;
  }

  private nextId = 0;

  /**
   * A list sized by nothing the query says: not a connection's edges, no `first`/`last`, no list
   * argument. Its items are counted at a guess before execution and for real when it resolves.
   */
  private sizedByData(field: GraphQLField<unknown, unknown>, pageSize: number | null): boolean {
    if (!isListType(getNullableType(field.type)) || pageSize !== null) return false;
    return !field.args.some((a) => a.name === 'first' || a.name === 'last' || isListType(getNullableType(a.type)));
  }

  /** A field node reached along several paths keeps the largest item cost and the smallest guess: the check then errs high. */
  private noteSized(node: FieldNode, expected: number, itemCost: number): void {
    const known = this.sized.get(node);
    if (!known) this.sized.set(node, { expected, itemCost });
    else this.sized.set(node, { expected: Math.min(known.expected, expected), itemCost: Math.max(known.itemCost, itemCost) });
  }

  private idOf(set: SelectionSetNode): number {
    let id = this.setIds.get(set);
    if (id === undefined) this.setIds.set(set, (id = this.nextId++));
    return id;
  }

  /** Items a field returns: 1 unless it is a list. Throws a limit error for an oversized list argument. */
  private listSize(field: GraphQLField<unknown, unknown>, args: Record<string, unknown> | null, pageSize: number | null): number {
    if (!isListType(getNullableType(field.type))) return 1;
    if (field.args.some((a) => a.name === 'first' || a.name === 'last')) return this.pageSize(args);
    if (pageSize !== null) return pageSize;
    const listArg = field.args.find((a) => isListType(getNullableType(a.type)));
    if (listArg) {
      const value = args?.[listArg.name];
      const length = Array.isArray(value) ? value.length : value == null ? 0 : 1;
      if (args === null || length > QUERY_LIMITS.listArgument) {
        throw limitError(`${field.name}(${listArg.name}:) takes at most ${QUERY_LIMITS.listArgument} items; this query passes ${args === null ? 'an unknown number' : length}.`);
      }
      return length;
    }
    return DEFAULT_PAGE_SIZE;
  }

  /** `first` or `last`, the default page size when neither is given, within 0 and the maximum. */
  private pageSize(args: Record<string, unknown> | null): number {
    if (args === null) return MAX_GRAPHQL_PAGE_SIZE;
    const sizes = [args.first, args.last].filter((v): v is number => typeof v === 'number');
    if (sizes.length === 0) return DEFAULT_PAGE_SIZE;
    return Math.min(MAX_GRAPHQL_PAGE_SIZE, Math.max(0, ...sizes));
  }

  /** Argument values as the resolver will get them; null when they cannot be coerced (then counted at the maximum). */
  private argumentsOf(field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> | null {
    if (field.args.length === 0) return {};
    try {
      return getArgumentValues(field, node, this.variables);
    } catch {
      return null;
    }
  }

  /** A Relay connection: an object type with `edges` and `pageInfo`. */
  private isConnection(type: GraphQLNamedType): boolean {
    let known = this.connections.get(type.name);
    if (known === undefined) {
      known = isObjectType(type) && 'edges' in type.getFields() && 'pageInfo' in type.getFields();
      this.connections.set(type.name, known);
    }
    return known;
  }

  /** The fields of `sets` that apply to an object of `type`, by response key, as graphql-js collects them. */
  private merge(type: GraphQLObjectType, sets: readonly SelectionSetNode[]): Fields {
    if (sets.length === 1) return this.collect(type, sets[0]);
    const merged: Fields = new Map();
    for (const set of sets) {
      for (const [key, nodes] of this.collect(type, set)) {
        const into = merged.get(key);
        if (into) into.push(...nodes);
        else merged.set(key, [...nodes]);
      }
    }
    return merged;
  }

  private collect(type: GraphQLObjectType, set: SelectionSetNode): Fields {
    let byType = this.collected.get(set);
    if (!byType) this.collected.set(set, (byType = new Map()));
    let fields = byType.get(type.name);
    if (!fields) {
      fields = new Map();
      this.collectInto(type, set, fields, new Set());
      byType.set(type.name, fields);
    }
    return fields;
  }

  private collectInto(type: GraphQLObjectType, set: SelectionSetNode, into: Fields, visited: Set<string>): void {
    for (const sel of set.selections) {
      if (!this.included(sel)) continue;
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        const nodes = into.get(key);
        if (nodes) nodes.push(sel);
        else into.set(key, [sel]);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        if (this.applies(sel.typeCondition?.name.value, type)) this.collectInto(type, sel.selectionSet, into, visited);
      } else {
        const name = sel.name.value;
        const fragment = this.fragments.get(name);
        if (visited.has(name) || !fragment || !this.applies(fragment.typeCondition.name.value, type)) continue;
        visited.add(name);
        this.collectInto(type, fragment.selectionSet, into, visited);
      }
    }
  }

  private applies(condition: string | undefined, type: GraphQLObjectType): boolean {
    if (!condition || condition === type.name) return true;
    const conditional = this.schema.getType(condition);
    return conditional != null && isAbstractType(conditional) && this.schema.isSubType(conditional, type);
  }

  private included(node: FieldNode | { directives?: FieldNode['directives'] }): boolean {
    const skip = getDirectiveValues(GraphQLSkipDirective, node, this.variables);
    if (skip?.if === true) return false;
    const include = getDirectiveValues(GraphQLIncludeDirective, node, this.variables);
    return include?.if !== false;
  }
}

/** Plans remembered per document: which variables the analysis read, and the plan for their values. */
interface Remembered {
  names: readonly string[];
  plans: Map<string, CostPlan>;
}
const remembered = new WeakMap<DocumentNode, Map<string, Remembered[]>>();
/** Distinct values of the sizing variables kept per document and operation (`nodes(ids:)` lists vary). */
const REMEMBERED_VALUES = 64;

/** The variables object, noting each name the analysis reads. */
function watched(variables: Record<string, unknown>, read: Set<string>): Record<string, unknown> {
  return new Proxy(variables, {
    get(target, name, receiver) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name, receiver);
    },
    has(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.has(target, name);
    },
    getOwnPropertyDescriptor(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.getOwnPropertyDescriptor(target, name);
    },
  });
}

const valuesKey = (names: readonly string[], variables: Record<string, unknown>) => JSON.stringify(names.map((name) => variables[name] ?? null));

/**
 * The cost plan of the operation a request runs, with its variables. Null when the operation or
 * its variables are invalid: execution then refuses it before any resolver runs.
 *
 * The analysis is a function of the document and of the few variables it reads (page sizes, list
 * arguments, `@skip`/`@include`, a mutation's input): it is run once per document and values of
 * those variables, and remembered with the parsed document, so that a client repeating its query
 * for another id does not pay for the walk again.
 */
export function queryPlan(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, rawVariables: unknown): CostPlan | null {
  const operation = getOperationAST(document, operationName);
  if (!operation) return null;
  const root = schema.getRootType(operation.operation);
  if (!root) return null;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], (rawVariables ?? {}) as Record<string, unknown>, { maxErrors: 1 });
  if (coerced.errors) return null;
  let byOperation = remembered.get(document);
  if (!byOperation) remembered.set(document, (byOperation = new Map()));
  const entries = byOperation.get(operationName ?? '') ?? [];
  for (const entry of entries) {
    const known = entry.plans.get(valuesKey(entry.names, coerced.coerced));
    if (known !== undefined) return known;
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const read = new Set<string>();
  const analysis = new CostAnalysis(schema, fragments, watched(coerced.coerced, read));
  const plan: CostPlan = { cost: analysis.objectCost(root, [operation.selectionSet], null), sized: analysis.sized };
  const names = [...read].sort();
  let entry = entries.find((e) => e.names.join() === names.join());
  if (!entry) {
    // One set of names per path through `@skip`/`@include`: a handful, kept to a few.
    if (entries.length >= 8) entries.shift();
    entries.push((entry = { names, plans: new Map() }));
  }
  if (entry.plans.size >= REMEMBERED_VALUES) entry.plans.clear();
  entry.plans.set(valuesKey(names, coerced.coerced), plan);
  byOperation.set(operationName ?? '', entries);
  return plan;
}

/** The cost alone: see queryPlan. */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, rawVariables: unknown): number | null {
  return queryPlan(schema, document, operationName, rawVariables)?.cost ?? null;
}

/**
 * Checks on the document alone, as a validation rule (cached with the document): aliases in the
 * whole document, and how deeply each operation nests fields that have a selection. Fragments are
 * measured once each, so a document that spreads them many times costs no more to check.
 */
export function queryShapeRule(context: ValidationContext): ASTVisitor {
  const document = context.getDocument();
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const fragmentDepths = new Map<string, number>();

  const depthOf = (set: SelectionSetNode): number => {
    let deepest = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.selectionSet) deepest = Math.max(deepest, 1 + depthOf(sel.selectionSet));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, depthOf(sel.selectionSet));
      } else {
        const name = sel.name.value;
        let depth = fragmentDepths.get(name);
        if (depth === undefined) {
          fragmentDepths.set(name, 0); // a cycle, which graphql-js's own rules report
          const fragment = fragments.get(name);
          depth = fragment ? depthOf(fragment.selectionSet) : 0;
          fragmentDepths.set(name, depth);
        }
        deepest = Math.max(deepest, depth);
      }
    }
    return deepest;
  };

  return {
    Document(node) {
      let aliases = 0;
      const count = (set: SelectionSetNode): void => {
        for (const sel of set.selections) {
          if (sel.kind === Kind.FIELD && sel.alias) aliases += 1;
          if (sel.kind !== Kind.FRAGMENT_SPREAD && sel.selectionSet) count(sel.selectionSet);
        }
      };
      for (const def of node.definitions) if ('selectionSet' in def && def.selectionSet) count(def.selectionSet);
      if (aliases > QUERY_LIMITS.aliases) {
        context.reportError(limitError(`The document has ${aliases} aliases; the limit is ${QUERY_LIMITS.aliases}.`));
      }
    },
    OperationDefinition(node) {
      const depth = depthOf(node.selectionSet);
      if (depth > QUERY_LIMITS.depth) {
        context.reportError(limitError(`Query is nested ${depth} levels deep; the limit is ${QUERY_LIMITS.depth}.`, [node]));
      }
    },
  };
}

/** graphql-js's parser, stopping at the nesting and the token limits with a coded error. */
export function parseWithLimit(source: Parameters<typeof parse>[0], options?: Parameters<typeof parse>[1]): DocumentNode {
  if (nestsDeeperThan(source, QUERY_LIMITS.nesting, QUERY_LIMITS.tokens)) {
    throw limitError(`The query nests braces, brackets and parentheses more than ${QUERY_LIMITS.nesting} levels deep; the limit is ${QUERY_LIMITS.nesting}.`);
  }
  try {
    return parse(source, { ...options, maxLexicalTokens: QUERY_LIMITS.tokens });
  } catch (error) {
    if (error instanceof GraphQLError && /tokens\. Parsing aborted/.test(error.message)) {
      throw limitError(`The query has more than ${QUERY_LIMITS.tokens} tokens; the limit is ${QUERY_LIMITS.tokens}.`);
    }
    throw error;
  }
}

/**
 * The limits as one Yoga plugin: the size of the query text when the request arrives, its tokens
 * while parsing, aliases and depth while validating, and the cost just before execution, when the
 * variables are known. Every response of an operation that reached execution carries
 * `extensions.cost = { requested, limit }`.
 */
export function useQueryLimits(): Plugin {
  return {
    onParams({ params, setResult }) {
      if (typeof params.query !== 'string') return;
      const bytes = Buffer.byteLength(params.query, 'utf8');
      if (bytes > QUERY_LIMITS.documentBytes) {
        setResult({ errors: [limitError(`The query is ${bytes} bytes long; the limit is ${QUERY_LIMITS.documentBytes}.`)] });
      }
    },
    onParse({ setParseFn }) {
      setParseFn(parseWithLimit);
    },
    onValidate({ addValidationRule }) {
      addValidationRule(queryShapeRule);
    },
    onExecute({ args, setResultAndStopExecution }) {
      let plan: CostPlan | null;
      try {
        plan = queryPlan(args.schema, args.document, args.operationName, args.variableValues);
      } catch (error) {
        if (error instanceof GraphQLError && error.extensions.code === CODE) return setResultAndStopExecution({ errors: [error] });
        throw error;
      }
      if (plan === null) return;
      const requested = plan.cost;
      if (requested > QUERY_LIMITS.cost) {
        const error = limitError(
          `The query could return up to ${requested} fields; the limit is ${QUERY_LIMITS.cost}. Ask for smaller pages (first/last) or fewer fields.`,
        );
        return setResultAndStopExecution({ errors: [error], extensions: { cost: { requested, limit: QUERY_LIMITS.cost } } });
      }
      const running = startRunningCost(args.contextValue, plan, QUERY_LIMITS.cost);
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const cost = { requested, counted: running.total, actual: answerFields(result.data), limit: QUERY_LIMITS.cost };
          setResult({ ...result, extensions: { ...result.extensions, cost } });
        },
      };
    },
  };
}
