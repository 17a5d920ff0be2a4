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

/**
 * The path (`["input", "title"]`) of the first unsafe string in a decoded JSON value, keys
 * included; null when there is none. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findUnsafeString(value: unknown, root: string[] = []): string[] | null {
  const stack: Array<{ value: unknown; path: string[] }> = [{ value, path: root }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (isUnsafeString(current)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push({ value: item, path: [...path, String(i)] }));
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        if (isUnsafeString(key)) return [...path, key];
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return null;
}

export function unsafeStringMessage(where: string): string {
  return `${where} contains a NUL character or invalid UTF-16, which is not accepted`;
}
