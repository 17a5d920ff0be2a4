/**
 * Strings that no field of the platform accepts: PostgreSQL cannot store a NUL byte in text
 * (the driver throws, which used to surface as a 500), and a lone UTF-16 surrogate has no UTF-8
 * form, so it would be stored mangled. Both doors refuse them before any service runs.
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isUnsafeString(value: string): boolean {
  return UNSAFE.test(value);
}

/** A value met while walking, with the way back to the root, so a path is built only when needed. */
interface Step {
  value: unknown;
  key: string;
  parent: Step | null;
}

function pathOf(step: Step, root: string[]): string[] {
  const keys: string[] = [];
  for (let at: Step | null = step; at?.parent; at = at.parent) keys.push(at.key);
  return [...root, ...keys.reverse()];
}

/**
 * The path (`["input", "title"]`) of the first unsafe string in a decoded JSON value, keys
 * included; null when there is none. Iterative and linear in the size of the value: each value is
 * visited once and holds only a pointer to its parent, so neither depth nor width can make it slow.
 */
export function findUnsafeString(value: unknown, root: string[] = []): string[] | null {
  const stack: Step[] = [{ value, key: '', parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const current = step.value;
    if (typeof current === 'string') {
      if (isUnsafeString(current)) return pathOf(step, root);
    } else if (Array.isArray(current)) {
      // Pushed last to first, so the first one is looked at first.
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: String(i), parent: step });
    } else if (typeof current === 'object' && current !== null) {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        if (isUnsafeString(key)) return pathOf({ value: undefined, key, parent: step }, root);
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: step });
      }
    }
  }
  return null;
}

export function unsafeStringMessage(where: string): string {
  return `${where} contains a NUL character or invalid UTF-16, which is not accepted`;
}
