// The Node APIs the PDF tooling tests use beyond those of node.d.ts, typed as far as they use them.

declare module "node:fs" {
  export function readFileSync(path: string | URL): Uint8Array;
  export function writeFileSync(path: string, data: Uint8Array): void;
}
