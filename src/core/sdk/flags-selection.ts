// Which of a project's flags a /flags/ request evaluates (reference feature-flags.md 2.1): active
// and not deleted, narrowed by `flag_keys_to_evaluate` (with the flags they depend on),
// `evaluation_runtime` and `evaluation_contexts`; none with `disable_flags`.
import type { FlagDefinition } from '../flags/types.js';
import type { FlagsRequest } from './flags-request.js';

type Narrowing = Pick<FlagsRequest, 'flagKeys' | 'disableFlags' | 'evaluationRuntime' | 'evaluationContexts'>;

/** The usual selection (no keys, no contexts) per cached list and runtime, frozen so evaluation can prepare it once. */
const usual = new WeakMap<readonly FlagDefinition[], Map<string | null, readonly FlagDefinition[]>>();

export function selectFlags(all: readonly FlagDefinition[], request: Narrowing): readonly FlagDefinition[] {
  if (request.disableFlags) return [];
  if (request.flagKeys !== null || (request.evaluationContexts?.length ?? 0) > 0 || !Object.isFrozen(all)) return select(all, request);
  let byRuntime = usual.get(all);
  if (!byRuntime) usual.set(all, (byRuntime = new Map()));
  const runtime = request.evaluationRuntime === 'server' || request.evaluationRuntime === 'client' ? request.evaluationRuntime : null;
  let flags = byRuntime.get(runtime);
  if (!flags) byRuntime.set(runtime, (flags = Object.freeze(select(all, { ...request, evaluationRuntime: runtime }))));
  return flags;
}

function select(all: readonly FlagDefinition[], request: Narrowing): FlagDefinition[] {
  let flags = all.filter((flag) => flag.active && !flag.deleted);
  flags = flags.filter((flag) => runsIn(flag, request.evaluationRuntime) && taggedFor(flag, request.evaluationContexts));
  if (request.flagKeys !== null) flags = withDependencies(flags, new Set(request.flagKeys));
  return flags;
}

/** `server` asks for server and all flags, `client` for client and all; anything else for every flag. */
function runsIn(flag: FlagDefinition, runtime: string | null): boolean {
  if (runtime !== 'server' && runtime !== 'client') return true;
  return flag.evaluationRuntime === 'all' || flag.evaluationRuntime === runtime;
}

/** A flag with evaluation tags is evaluated only where the request names one of them (if it names any). */
function taggedFor(flag: FlagDefinition, contexts: string[] | null): boolean {
  if (contexts === null || contexts.length === 0 || flag.evaluationTags.length === 0) return true;
  return flag.evaluationTags.some((tag) => contexts.includes(tag));
}

/** The flags named, and every flag their `flag` conditions name (by id), transitively. */
function withDependencies(flags: readonly FlagDefinition[], keys: ReadonlySet<string>): FlagDefinition[] {
  const byId = new Map(flags.map((flag) => [String(flag.id), flag]));
  const wanted = new Set<FlagDefinition>();
  const queue = flags.filter((flag) => keys.has(flag.key));
  while (queue.length > 0) {
    const flag = queue.pop()!;
    if (wanted.has(flag)) continue;
    wanted.add(flag);
    for (const set of flag.filters.groups ?? []) {
      for (const property of set.properties ?? []) {
        const dependency = property.type === 'flag' ? byId.get(String(property.key)) : undefined;
        if (dependency) queue.push(dependency);
      }
    }
  }
  return flags.filter((flag) => wanted.has(flag));
}
