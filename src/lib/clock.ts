/**
 * The one source of "now". Tests move it with `setClock`; nothing else reads Date.now().
 */
let source: () => number = () => Date.now();

export function nowMs(): number {
  return source();
}

export function now(): Date {
  return new Date(source());
}

export function nowIso(): string {
  return new Date(source()).toISOString();
}

/** Replace the clock (tests only). Returns a function that restores the real one. */
export function setClock(fn: () => number): () => void {
  source = fn;
  return () => {
    source = () => Date.now();
  };
}
