import { loadConfig } from '../config/config';
import { openDatabase, type Db } from '../db/client';
import { DomainError } from '../domain/errors';
import { roleOrGuestSchema } from '../domain/roles';
import { parseInput } from '../domain/validate';
import { bootstrapOrganization, upsertMember } from '../modules/members/service';
import { createApiToken, ensureUser, userIdByEmail } from '../modules/users/service';
import { describeStartFailure } from '../lib/start-failure';
import { parseCommandLine, ROLE_CHOICES, USAGE, UsageError, type CommandSpec } from './commands';

/**
 * `npm run --silent quire -- <command>`: administration against the same database as the server.
 * Each command prints one JSON object as its last line of output.
 */
async function run(db: Db, command: CommandSpec, f: Record<string, string>): Promise<unknown> {
  switch (command.words.join(' ')) {
    case 'bootstrap': {
      const { user } = await ensureUser(db, { email: f.email, name: f.name });
      const org = await bootstrapOrganization(db, { title: f.org, adminUserId: user.id });
      return { organization: org.id, user: user.id, token: await createApiToken(db, user.id, 'bootstrap') };
    }
    case 'member add': {
      const role = parseInput(roleOrGuestSchema, f.role === 'guest' ? null : f.role, ['role']);
      const { user } = await ensureUser(db, { email: f.email, name: f.name });
      try {
        await upsertMember(db, f.org, user.id, role);
      } catch (error) {
        throw /foreign key/i.test(String((error as { message?: string }).message) + String((error as { cause?: unknown }).cause))
          ? new Error(`organization ${f.org} does not exist`)
          : error;
      }
      return { user: user.id, token: await createApiToken(db, user.id, 'member add') };
    }
    case 'token create': {
      const userId = f.email ? await userIdByEmail(db, f.email) : f.user;
      return { token: await createApiToken(db, userId, 'cli') };
    }
    default:
      return { migrated: true };
  }
}

function fail(message: string, withUsage = false): never {
  console.error(withUsage ? `${message}\n${USAGE}` : message);
  console.log(JSON.stringify({ error: message }));
  process.exit(1);
}

const argv = process.argv.slice(2);
let parsed: ReturnType<typeof parseCommandLine>;
try {
  parsed = parseCommandLine(argv);
  // Checked before the database opens: a typo must not wait for (or migrate) anything.
  if (parsed.kind === 'run' && parsed.flags.role !== undefined && !ROLE_CHOICES.includes(parsed.flags.role)) {
    throw new UsageError(`--role must be one of ${ROLE_CHOICES.join(', ')} (got "${parsed.flags.role}")`);
  }
} catch (error) {
  fail((error as Error).message, error instanceof UsageError);
}
if (parsed.kind === 'help') {
  console.log(parsed.text);
  process.exit(argv.length === 0 ? 1 : 0);
}
// Settings and the database are checked before any command runs; a failure is one line.
const database = await Promise.resolve()
  .then(() => {
    const config = loadConfig();
    return openDatabase({ url: config.databaseUrl, directUrl: config.databaseDirectUrl, pooled: config.databasePooled, dataDir: config.dataDir, migrate: true });
  })
  .catch((error: unknown) => fail(`quire: ${describeStartFailure(error)}`));
let code = 0;
try {
  console.log(JSON.stringify(await run(database.db, parsed.command, parsed.flags)));
} catch (error) {
  code = 1;
  const message = error instanceof DomainError || error instanceof Error ? error.message : String(error);
  console.error(message);
  console.log(JSON.stringify({ error: message }));
} finally {
  await database.close();
}
process.exit(code);
