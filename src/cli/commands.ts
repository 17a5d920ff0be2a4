import { parseArgs } from 'node:util';
import { ROLES } from '../domain/roles';

/** One command of `npm run quire`: its words, its flags, and the line `--help` prints. */
export interface CommandSpec {
  words: string[];
  usage: string;
  /** Flags that take a value; `required` ones must be given (or one of `oneOf`). */
  flags: Record<string, { required?: boolean; description: string }>;
  oneOf?: string[];
}

/** Highest first, as people think of them; guest is a member without a role. */
export const ROLE_CHOICES = [...[...ROLES].reverse(), 'guest'];

export const COMMANDS: CommandSpec[] = [
  {
    words: ['bootstrap'],
    usage: 'bootstrap --org <title> --email <email> [--name <name>]',
    flags: { org: { required: true, description: 'title of the new organization' }, email: { required: true, description: "its admin's e-mail" }, name: { description: "the admin's display name" } },
  },
  {
    words: ['member', 'add'],
    usage: `member add --org <organizationId> --email <email> --role <${ROLE_CHOICES.join('|')}> [--name <name>]`,
    flags: {
      org: { required: true, description: 'organization id' },
      email: { required: true, description: "the member's e-mail (the user is created if new)" },
      role: { required: true, description: `one of ${ROLE_CHOICES.join(', ')}` },
      name: { description: 'display name of a new user' },
    },
  },
  {
    words: ['token', 'create'],
    usage: 'token create --email <email> | --user <userId>',
    flags: { email: { description: "the user's e-mail" }, user: { description: "the user's id" } },
    oneOf: ['email', 'user'],
  },
  { words: ['migrate'], usage: 'migrate', flags: {} },
];

export const USAGE = `usage: npm run --silent quire -- <command> [flags]   (--help after a command explains it)\n${COMMANDS.map((c) => `  ${c.usage}`).join('\n')}`;

/** A mistake in the command line itself: printed with the usage, exit 1, nothing opened. */
export class UsageError extends Error {}

export type Parsed = { kind: 'help'; text: string } | { kind: 'run'; command: CommandSpec; flags: Record<string, string> };

function helpOf(command: CommandSpec): string {
  const lines = Object.entries(command.flags).map(([name, f]) => `  --${name.padEnd(6)} ${f.description}${f.required ? ' (required)' : ''}`);
  return `usage: npm run --silent quire -- ${command.usage}\n${lines.join('\n')}`.trimEnd();
}

/**
 * Reads the command line: `--help` anywhere prints help and exits 0; an unknown command, an
 * unknown flag, a flag without its value or a missing required flag is a UsageError naming it.
 */
export function parseCommandLine(argv: string[]): Parsed {
  const words = argv.filter((a) => !a.startsWith('-'));
  const wantsHelp = argv.includes('--help') || argv.includes('-h') || words[0] === 'help';
  const command = COMMANDS.find((c) => c.words.every((w, i) => argv[i] === w));
  if (!command) {
    if (wantsHelp || argv.length === 0) return { kind: 'help', text: USAGE };
    throw new UsageError(`unknown command "${words.join(' ')}"`);
  }
  if (wantsHelp) return { kind: 'help', text: helpOf(command) };
  const options = Object.fromEntries(Object.keys(command.flags).map((name) => [name, { type: 'string' as const }]));
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: argv.slice(command.words.length), options, strict: true, allowPositionals: false }) as { values: Record<string, string | undefined> });
  } catch (error) {
    throw new UsageError(describeParseError(error, command));
  }
  for (const [name, flag] of Object.entries(command.flags)) {
    if (flag.required && !values[name]) throw new UsageError(`--${name} is required for "${command.words.join(' ')}"`);
  }
  if (command.oneOf && !command.oneOf.some((name) => values[name])) {
    throw new UsageError(`"${command.words.join(' ')}" needs ${command.oneOf.map((n) => `--${n}`).join(' or ')}`);
  }
  return { kind: 'run', command, flags: Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined)) };
}

function describeParseError(error: unknown, command: CommandSpec): string {
  const e = error as { code?: string; message?: string };
  const takes = Object.keys(command.flags).map((n) => `--${n}`).join(', ') || 'no flags';
  const name = command.words.join(' ');
  const option = /'(-[^']*)'/.exec(e.message ?? '')?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown flag ${option ?? ''} for "${name}"; it takes ${takes}`;
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument ${/'([^']*)'/.exec(e.message ?? '')?.[1] ?? ''} for "${name}"; it takes ${takes}`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${option ?? 'a flag'} needs a value`;
  return e.message ?? String(error);
}
