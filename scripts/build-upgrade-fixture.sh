#!/usr/bin/env bash
# Builds test/fixtures/upgrades/<sha>.tar.gz (a data directory written by Hoglet at commit <sha>)
# and <sha>.json (what that server answered), for test/storage/upgrades.test.ts.
#
#   scripts/build-upgrade-fixture.sh <commit>
#
# The commit is checked out in a worktree under /tmp (the checkout you run this from is not
# touched), built, bootstrapped on a fresh data directory, started, fed a fixed set of events
# through /batch/ by scripts/upgrade-fixture-data.js, asked its answers and stopped with SIGTERM.
set -euo pipefail

repo=$(git rev-parse --show-toplevel)
sha=$(git -C "$repo" rev-parse --short=7 "${1:?usage: $0 <commit>}")
work=/tmp/up-$sha
out=$repo/test/fixtures/upgrades
scratch=$(mktemp -d /tmp/upgrade-fixture-XXXXXX)
data=$scratch/data
pid=

cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || true; fi
  git -C "$repo" worktree remove --force "$work" 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

git -C "$repo" worktree remove --force "$work" 2>/dev/null || true
git -C "$repo" worktree add --quiet --detach "$work" "$sha"

# The storage packages decide what is written; when the commit pinned the same versions as this
# checkout, its node_modules is shared (fast), otherwise the commit's own are installed.
storage_versions() {
  node -e '
    const lock = JSON.parse(require("fs").readFileSync(0, "utf8"));
    for (const p of ["chdb", "better-sqlite3", "kysely", "pg", "@clickhouse/client"])
      console.log(p, lock.packages["node_modules/" + p]?.version);'
}
if [ "$(storage_versions <"$repo/package-lock.json")" = "$(storage_versions <"$work/package-lock.json")" ]; then
  ln -s "$repo/node_modules" "$work/node_modules"
else
  (cd "$work" && npm ci --ignore-scripts --no-audit --no-fund)
fi
(cd "$work" && npm run build --silent)

hoglet() { node "$work/bin/hoglet.js" "$@"; }
hoglet bootstrap --email upgrades@example.com --organization Upgrades --json --data-dir "$data" >"$scratch/credentials.json"
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
# node itself in the background (not a shell function), so $! is the server and SIGTERM stops it.
node "$work/bin/hoglet.js" serve --data-dir "$data" --port "$port" --log-level warn &
pid=$!
for _ in $(seq 1 300); do
  curl -sf "http://127.0.0.1:$port/_health" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { echo "the server of $sha exited" >&2; exit 1; }
  sleep 0.1
done

# Migration levels = the commit's migration files (they are numbered from 1 without gaps).
levels() { find "$work/src/storage/$1/migrations" -name '0*.ts' 2>/dev/null | wc -l; }
MIGRATION_LEVELS="$(levels meta) $(levels events)" node "$repo/scripts/upgrade-fixture-data.js" "http://127.0.0.1:$port" "$scratch/credentials.json" "$sha" >"$scratch/answers.json"
kill -TERM "$pid"
wait "$pid" || true
pid=

mkdir -p "$out"
tar -czf "$out/$sha.tar.gz" -C "$data" .
cp "$scratch/answers.json" "$out/$sha.json"
echo "$out/$sha.tar.gz: $(du -h "$out/$sha.tar.gz" | cut -f1)"
