// One write serves many requests, so one request's bad content must not fail the others: when
// the store refuses a write for its content, the batch is halved and each half written, down to
// the single items that are refused on their own. One bad item among n costs about 2·log2(n)
// writes, and the rest are stored. Used by the group commit (refused requests get a 400) and by
// the inserter behind the capture log (refused events are set aside).
import type { WriteFailure } from '../../storage/events/write-failure.js';

export interface Refusal<T> {
  item: T;
  error: unknown;
}

export interface CulpritSearch<T> {
  /** Some part of the batch was stored: the store works, so what it refused is the content's fault. */
  stored: boolean;
  /** Items refused for their content, for certain. */
  refused: Refusal<T>[];
  /** Single items refused for a reason that blames them only if the store took others. */
  suspects: Refusal<T>[];
  /** Parts that failed through the store's fault. */
  failed: { items: T[]; error: unknown }[];
}

export interface CulpritSearchSteps<T> {
  write: (items: T[]) => Promise<void>;
  classify: (error: unknown) => Promise<WriteFailure>;
  /** Called as each part is stored. */
  onStored?: (items: T[]) => void;
  /** Items answered meanwhile (e.g. timed out) are left out of the next writes. */
  isLive?: (item: T) => boolean;
}

export async function writeFindingCulprits<T>(items: T[], steps: CulpritSearchSteps<T>): Promise<CulpritSearch<T>> {
  const search: CulpritSearch<T> = { stored: false, refused: [], suspects: [], failed: [] };
  await writePart(items, steps, search);
  return search;
}

async function writePart<T>(batch: T[], steps: CulpritSearchSteps<T>, search: CulpritSearch<T>): Promise<void> {
  const live = steps.isLive ? batch.filter(steps.isLive) : batch;
  if (live.length === 0) return;
  try {
    await steps.write(live);
    search.stored = true;
    steps.onStored?.(live);
    return;
  } catch (error) {
    const kind = await steps.classify(error).catch(() => 'store' as const);
    if (kind === 'store') {
      search.failed.push({ items: live, error });
    } else if (live.length > 1) {
      const half = Math.ceil(live.length / 2);
      await writePart(live.slice(0, half), steps, search);
      await writePart(live.slice(half), steps, search);
    } else if (kind === 'content') {
      search.refused.push({ item: live[0]!, error });
    } else {
      search.suspects.push({ item: live[0]!, error });
    }
  }
}
