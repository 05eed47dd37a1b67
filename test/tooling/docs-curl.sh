# Sourced before the docs' examples (test/tooling/docs-examples.test.ts): the `curl` they call is
# the real one, with the status, method and URL of each request appended to $DOCS_RECORD
# (through curl's own --write-out, on stderr, kept out of what the example prints).
curl() {
  local args=() format="" err rc=0
  while (($#)); do
    case "$1" in
      # An example's own -w format is kept: the harness's goes after it.
      -w | --write-out) format="$2"; shift 2 ;;
      *) args+=("$1"); shift ;;
    esac
  done
  err=$(mktemp)
  command curl "${args[@]}" -w "${format}%{stderr}@@docs@@ %{http_code} %{method} %{url_effective}\n" 2>"$err" || rc=$?
  grep '^@@docs@@ ' "$err" | cut -c10- >>"$DOCS_RECORD" || true
  grep -v '^@@docs@@ ' "$err" >&2 || true
  rm -f "$err"
  return "$rc"
}

# Marks where the examples of run block $1 start.
__docs_block() { printf '# %s\n' "$1" >>"$DOCS_RECORD"; }
