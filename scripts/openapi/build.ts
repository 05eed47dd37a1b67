// `npm run openapi`: writes the OpenAPI document and the /docs page into .build/public, the
// API Worker's static assets (wrangler.toml [assets]). wrangler runs it before `wrangler dev`
// and `wrangler deploy` ([build]), vitest.config.ts before the tests: the output is never
// committed, so it cannot fall behind the code.
//
//   .build/public/v1/openapi.json   GET /v1/openapi.json
//   .build/public/docs.html         GET /docs
//   .build/public/docs/scalar.js    Scalar's standalone bundle, copied from node_modules
//   .build/public/docs/reference.js its configuration
//   .build/public/_headers          response headers of the above
import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_PATH, DOCS_HTML, HEADERS, PUBLIC_DIR, REFERENCE_JS, SCALAR_PATH } from "./docs-page";
import { openApiDocument } from "./document";

const root = fileURLToPath(new URL("../../", import.meta.url));
const SCALAR = join(root, "node_modules/@scalar/api-reference/dist/browser/standalone.js");

/** Writes through a temporary file, so a concurrent reader (wrangler dev) never sees half a file. */
function write(path: string, content: string | { copyOf: string }): void {
  const target = join(PUBLIC_DIR, path);
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  if (typeof content === "string") writeFileSync(temporary, content);
  else copyFileSync(content.copyOf, temporary);
  renameSync(temporary, target);
}

const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
write("v1/openapi.json", JSON.stringify(openApiDocument(version)));
write("docs.html", DOCS_HTML);
write(SCALAR_PATH, { copyOf: SCALAR });
write(CONFIG_PATH, REFERENCE_JS);
write("_headers", HEADERS);
