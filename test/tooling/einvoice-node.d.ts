// The Node APIs test/tooling/einvoice-validators.ts uses, typed as far as it uses them (the
// project has no @types/node in the test program: see node.d.ts).

declare module "node:child_process" {
  export function execFile(
    file: string,
    args: readonly string[],
    options: {
      encoding: "utf8";
      maxBuffer: number;
      env: Record<string, string | undefined> | undefined;
    },
    callback: (error: (Error & { code?: number | string }) | null, stdout: string, stderr: string) => void,
  ): unknown;
}

declare module "node:fs" {
  export function existsSync(path: string): boolean;
  export function readFileSync(path: string): Uint8Array;
  export function writeFileSync(path: string, data: Uint8Array): void;
  export function renameSync(from: string, to: string): void;
}

declare module "node:zlib" {
  export function gunzipSync(data: Uint8Array): Uint8Array;
}

declare module "node:crypto" {
  interface Hash {
    update(data: string | Uint8Array): Hash;
    digest(encoding: "hex"): string;
  }
  export function createHash(algorithm: string): Hash;
}

declare module "node:fs/promises" {
  export function mkdir(path: string, options?: { recursive: boolean }): Promise<unknown>;
  export function mkdtemp(prefix: string): Promise<string>;
  export function readFile(path: string, encoding: "utf8"): Promise<string>;
  export function rm(path: string, options: { recursive: boolean; force: boolean }): Promise<void>;
  export function writeFile(path: string, data: string, encoding: "utf8"): Promise<void>;
}
