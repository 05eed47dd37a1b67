// The Node APIs node-binary.test.ts uses beyond those of node.d.ts, typed as far as it uses them.

declare module "node:fs" {
  export function realpathSync(path: string): string;
}
