// The Node APIs the OpenAPI and /docs tooling tests use beyond node.d.ts and pdf-node.d.ts,
// typed as far as they use them (the project has no @types/node: its code runs in workerd).

declare module "node:fs" {
  export function readFileSync(path: string | URL, encoding: "utf8"): string;
  export function readdirSync(path: string): string[];
}

declare module "node:path" {
  export function join(...parts: string[]): string;
}

declare module "node:zlib" {
  export function gzipSync(data: string): Uint8Array;
}

declare module "node:net" {
  export function createServer(): {
    on(event: "error", listener: () => void): void;
    listen(port: number, host: string, ready: () => void): void;
    address(): { port: number };
    close(done: () => void): void;
  };
}

declare module "node:child_process" {
  type Options = { cwd?: string; env?: Record<string, string | undefined>; stdio?: "pipe" };
  export function execFileSync(file: string, args: readonly string[], options: Options): Uint8Array;
  export function spawn(
    command: string,
    args: readonly string[],
    options: Options,
  ): {
    pid?: number;
    exitCode: number | null;
    stdout: { on(event: "data", listener: (chunk: Uint8Array) => void): void };
    stderr: { on(event: "data", listener: (chunk: Uint8Array) => void): void };
    on(event: "exit", listener: (code: number | null) => void): void;
    kill(signal: "SIGTERM" | "SIGKILL"): boolean;
  };
}
