// "Perhaps you meant 'now(...)'?": the closest name to a misspelt function, as PostHog finds it
// (Python's difflib.get_close_matches(name, names, 1), cutoff 0.6), so the hint is PostHog's.

/** Characters in matching blocks, found as difflib's SequenceMatcher finds them (no junk: names are short). */
function matchingCharacters(a: string, b: string): number {
  let total = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    // The longest common block, earliest in a, then earliest in b.
    let bestI = alo, bestJ = blo, bestSize = 0;
    let lengths = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (let j = blo; j < bhi; j++) {
        if (a[i] !== b[j]) continue;
        const size = (lengths.get(j - 1) ?? 0) + 1;
        next.set(j, size);
        if (size > bestSize) {
          bestI = i - size + 1;
          bestJ = j - size + 1;
          bestSize = size;
        }
      }
      lengths = next;
    }
    if (bestSize === 0) continue;
    total += bestSize;
    if (alo < bestI && blo < bestJ) queue.push([alo, bestI, blo, bestJ]);
    if (bestI + bestSize < ahi && bestJ + bestSize < bhi) queue.push([bestI + bestSize, ahi, bestJ + bestSize, bhi]);
  }
  return total;
}

/** SequenceMatcher(None, candidate, word).ratio(). */
export function similarity(candidate: string, word: string): number {
  const length = candidate.length + word.length;
  return length === 0 ? 1 : (2 * matchingCharacters(candidate, word)) / length;
}

/** The best name at or above difflib's cutoff (a tie goes to the greater name, as Python's nlargest). */
export function closestName(word: string, names: Iterable<string>, cutoff = 0.6): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const name of names) {
    const score = similarity(name, word);
    if (score < cutoff) continue;
    if (!best || score > best.score || (score === best.score && name > best.name)) best = { name, score };
  }
  return best?.name;
}
