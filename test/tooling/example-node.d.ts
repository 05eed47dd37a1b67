// The Node APIs test/tooling/example-client.test.ts uses beyond node.d.ts, typed as far as it
// uses them (the project has no @types/node: its code runs in workerd).

declare module "node:child_process" {
  export function spawnSync(
    command: string,
    args: readonly string[],
    options: { cwd: string; encoding: "utf8" },
  ): { status: number | null; stdout: string; stderr: string };
  /** A program started in its own process group (`detached`), so that stopping it stops its children. */
  export function spawn(
    command: string,
    args: readonly string[],
    options: {
      cwd: string;
      env?: Record<string, string | undefined>;
      detached: boolean;
      stdio: ["ignore", "pipe", "pipe"];
    },
  ): {
    pid?: number;
    exitCode: number | null;
    stdout: { on(event: "data", listener: (chunk: Uint8Array) => void): void };
    stderr: { on(event: "data", listener: (chunk: Uint8Array) => void): void };
    on(event: "exit", listener: (code: number | null) => void): void;
    kill(signal: "SIGKILL"): boolean;
  };
}

declare module "node:fs" {
  export function readFileSync(path: string, encoding: "utf8"): string;
  export function mkdirSync(path: string, options: { recursive: boolean }): void;
}

declare module "node:net" {
  export function createServer(): {
    listen(port: 0, host: string, ready: () => void): void;
    address(): { port: number };
    close(done: () => void): void;
  };
}
