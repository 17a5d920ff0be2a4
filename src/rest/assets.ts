import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A file the docs serve: the production build copies it to `dist/assets/` (its packages are
 * devDependencies, absent from a production install); from source it is read in node_modules.
 */
const resolvePackage = (specifier: string) => pathToFileURL(createRequire(import.meta.url).resolve(specifier));

export function assetFile(name: string, fromPackage: () => URL): string {
  const bundled = fileURLToPath(new URL(`./assets/${name}`, import.meta.url));
  return existsSync(bundled) ? bundled : fileURLToPath(fromPackage());
}

/** The official contract Quire implements (`@gitbook/api`'s OpenAPI 3.0 document). */
export const CONTRACT_ASSET = {
  name: 'gitbook-openapi.json',
  fromPackage: () => resolvePackage('@gitbook/api/spec/openapi.json'),
};

/** Scalar's API reference as one browser script, so /v1/docs needs no CDN. */
export const SCALAR_ASSET = {
  name: 'scalar-api-reference.js',
  // The package exports no path to its browser build: go from its main entry (dist/index.js).
  fromPackage: () => new URL('./browser/standalone.js', resolvePackage('@scalar/api-reference')),
};
