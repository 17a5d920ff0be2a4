/**
 * Why the server or the command line could not start, as one line: the configuration, the
 * database's refusal (bad credentials, missing database, unknown host) or a busy port. No stack
 * trace, since each of these is fixed in the environment, not in the code.
 */
export function describeStartFailure(error: unknown): string {
  const e = error as { code?: string; message?: string; address?: string; port?: number; hostname?: string };
  if (e?.code === 'EADDRINUSE') return `port ${e.port} is already in use; stop what listens there or set PORT`;
  if (e?.code === 'ENOTFOUND') return `database host "${e.hostname}" not found; check DATABASE_URL`;
  const message = String(e?.message ?? error).split('\n')[0];
  return message;
}
