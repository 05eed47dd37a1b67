/** Longest `verified_name` / `verified_address` kept, in characters. */
export const MAX_REGISTRY_TEXT = 500;

// C0 controls and DEL, but not the tab and line breaks, which are whitespace here.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
// VIES writes "---" for what a member state does not disclose.
const UNDISCLOSED = /^-+$/;

/**
 * A trader's name or address as a registry gives it, made into one line: each line trimmed
 * with its inner whitespace collapsed and a trailing comma dropped, blank and `---` lines
 * removed, the rest joined with ", ", then cut at 500 characters. Nothing left → null.
 *
 * @example
 * registryText("Auguste Reyerslaan 52\n1030 Schaarbeek"); // "Auguste Reyerslaan 52, 1030 Schaarbeek"
 * registryText("---"); // null
 */
export function registryText(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const lines = raw
    .replace(CONTROL, " ")
    .split(/\r\n|\r|\n/)
    .map((line) =>
      line
        .replace(/\s+/g, " ")
        .trim()
        .replace(/\s*[,;]+$/, ""),
    )
    .filter((line) => line !== "" && !UNDISCLOSED.test(line));
  if (lines.length === 0) return null;
  const text = lines.join(", ");
  // By code points, so that a cut never splits a surrogate pair.
  const chars = Array.from(text);
  return chars.length <= MAX_REGISTRY_TEXT
    ? text
    : chars
        .slice(0, MAX_REGISTRY_TEXT)
        .join("")
        .replace(/[\s,]+$/, "");
}
