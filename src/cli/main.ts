import { loadConfig } from '../config/config';
import { openDatabase, type Db } from '../db/client';
import { DomainError } from '../domain/errors';
import { roleOrGuestSchema } from '../domain/roles';
import { parseInput } from '../domain/validate';
import { bootstrapOrganization, upsertMember } from '../modules/members/service';
import { createApiToken, ensureUser, userIdByEmail } from '../modules/users/service';
import { describeStartFailure } from '../lib/start-failure';

/**
 * `npm run --silent quire -- <command>`: administration against the same database as the server.
 * Each command prints one JSON object as its last line of output.
 */
const USAGE = `usage:
  bootstrap --org <title> --email <email> [--name <name>]
  member add --org <organizationId> --email <email> --role <admin|create|review|edit|comment|read|guest>
  token create --email <email> | --user <userId>
  migrate`;

function flags(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"\n${USAGE}`);
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${arg} needs a value\n${USAGE}`);
    out[arg.slice(2)] = value;
    i++;
  }
  return out;
}

function need(f: Record<string, string>, name: string): string {
  if (!f[name]) throw new Error(`--${name} is required\n${USAGE}`);
  return f[name];
}

async function run(db: Db, argv: string[]): Promise<unknown> {
  const [command, sub, ...rest] = argv;
  if (command === 'bootstrap') {
    const f = flags([sub, ...rest].filter((x) => x !== undefined));
    const { user } = await ensureUser(db, { email: need(f, 'email'), name: f.name });
    const org = await bootstrapOrganization(db, { title: need(f, 'org'), adminUserId: user.id });
    return { organization: org.id, user: user.id, token: await createApiToken(db, user.id, 'bootstrap') };
  }
  if (command === 'member' && sub === 'add') {
    const f = flags(rest);
    const roleArg = need(f, 'role');
    const role = parseInput(roleOrGuestSchema, roleArg === 'guest' ? null : roleArg, ['role']);
    const orgId = need(f, 'org');
    const { user } = await ensureUser(db, { email: need(f, 'email'), name: f.name });
    try {
      await upsertMember(db, orgId, user.id, role);
    } catch (error) {
      throw /foreign key/i.test(String((error as { message?: string }).message) + String((error as { cause?: unknown }).cause))
        ? new Error(`organization ${orgId} does not exist`)
        : error;
    }
    return { user: user.id, token: await createApiToken(db, user.id, 'member add') };
  }
  if (command === 'token' && sub === 'create') {
    const f = flags(rest);
    const userId = f.email ? await userIdByEmail(db, f.email) : need(f, 'user');
    return { token: await createApiToken(db, userId, 'cli') };
  }
  if (command === 'migrate') return { migrated: true };
  throw new Error(`unknown command "${argv.filter((a) => !a.startsWith('--')).join(' ')}"\n${USAGE}`);
}

if (process.argv.includes('--help') || process.argv.includes('-h') || process.argv.length <= 2) {
  console.log(USAGE);
  process.exit(process.argv.length <= 2 ? 1 : 0);
}
// Settings and the database are checked before any command runs; a failure is one line.
const database = await Promise.resolve()
  .then(() => {
    const config = loadConfig();
    return openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrate: true });
  })
  .catch((error: unknown) => {
    console.error(`quire: ${describeStartFailure(error)}`);
    process.exit(1);
  });
let code = 0;
try {
  console.log(JSON.stringify(await run(database.db, process.argv.slice(2))));
} catch (error) {
  code = 1;
  const message = error instanceof DomainError || error instanceof Error ? error.message : String(error);
  console.error(message);
  console.log(JSON.stringify({ error: message }));
} finally {
  await database.close();
}
process.exit(code);
