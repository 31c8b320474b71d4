// The session recording player as its own chunk: the main bundle carries only this loader; rrweb's
// replayer and the player's controls (RecordingPlayerView) load on the first recording opened.
// Shared pages reuse it with their own fetch (one that adds a sharing token, say).
import { useEffect, useState } from 'preact/hooks';
import type { RecordingPlayerView } from './RecordingPlayerView';
import type { RecordingPlayerProps } from './snapshots';

export type { RecordingFetch, RecordingPlayerHandle, RecordingPlayerProps } from './snapshots';

type View = typeof RecordingPlayerView;
let loading: Promise<View> | null = null;

export function RecordingPlayer(props: RecordingPlayerProps) {
  const [View, setView] = useState<View | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    loading ??= import('./RecordingPlayerView').then((m) => m.RecordingPlayerView);
    loading.then((v) => setView(() => v)).catch((e) => { loading = null; setFailed(String(e)); });
  }, []);
  if (failed) return <p class="error" role="alert">The player could not be loaded ({failed}).</p>;
  return View ? <View {...props} /> : <p class="muted recording-loading">Loading the player…</p>;
}
