// A project with no events yet: how to send the first one (posthog-js with this server as
// api_host, posthog-node), the project token, and a line that waits for the first event (the
// newest event asked every few seconds, until there is one).
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { when } from '../lib/format';
import { runQuery } from '../lib/run';
import { CopyButton } from './CopyButton';

const POLL_MS = 3000;

export function webSnippet(token: string, host: string): string {
  return [
    `<script src="${host}/static/array.js"></script>`,
    '<script>',
    `  posthog.init('${token}', { api_host: '${host}', person_profiles: 'identified_only' })`,
    '</script>',
  ].join('\n');
}

export function npmSnippet(token: string, host: string): string {
  return [
    '// npm install posthog-js',
    "import posthog from 'posthog-js'",
    '',
    `posthog.init('${token}', { api_host: '${host}', person_profiles: 'identified_only' })`,
  ].join('\n');
}

export function nodeSnippet(token: string, host: string): string {
  return [
    '// npm install posthog-node',
    "import { PostHog } from 'posthog-node'",
    '',
    `const client = new PostHog('${token}', { host: '${host}' })`,
    "client.capture({ distinctId: 'user-1', event: 'signed_up' })",
    'await client.shutdown()',
  ].join('\n');
}

interface FirstEvent {
  event: string;
  timestamp: string;
}

/** Polls for the project's newest event until one exists. */
function useFirstEvent(project: string): { first: FirstEvent | null; error: string | null } {
  const [first, setFirst] = useState<FirstEvent | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      try {
        const answer = await runQuery<{ results: [string, string][] }>(project, {
          kind: 'EventsQuery', select: ['event', 'timestamp'], orderBy: ['timestamp ASC'], after: 'all', limit: 1,
        }, undefined, 'force_blocking');
        const row = answer.results[0];
        if (stopped) return;
        setError(null);
        if (row) { setFirst({ event: row[0], timestamp: row[1] }); return; }
      } catch (e) {
        if (stopped) return;
        setError(e instanceof ApiError ? e.message : String(e));
      }
      timer = setTimeout(look, POLL_MS);
    };
    void look();
    return () => { stopped = true; clearTimeout(timer); };
  }, [project]);
  return { first, error };
}

function Snippet({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <div class="onboarding-snippet">
      <div class="onboarding-snippet-head"><h3>{title}</h3><CopyButton text={text} label={`Copy ${title}`} /></div>
      <pre data-testid={testId}><code>{text}</code></pre>
    </div>
  );
}

export function Onboarding({ project, token }: { project: string; token: string }) {
  const host = location.origin;
  const { first, error } = useFirstEvent(project);
  return (
    <section class="card onboarding" data-testid="onboarding" aria-labelledby="onboarding-title">
      <h2 id="onboarding-title">Send your first event</h2>
      <p class="muted">This project has no events yet. Add PostHog's SDK to your site or server with this server as its host: Hoglet speaks PostHog's capture API.</p>
      <p class="onboarding-token">
        Project token: <code data-testid="project-token">{token}</code> <CopyButton text={token} label="Copy project token" />
      </p>
      <Snippet title="Website (posthog-js)" text={webSnippet(token, host)} testId="snippet-js" />
      <Snippet title="posthog-js from npm" text={npmSnippet(token, host)} testId="snippet-npm" />
      <Snippet title="Node.js (posthog-node)" text={nodeSnippet(token, host)} testId="snippet-node" />
      {first ? (
        <p class="onboarding-status received" role="status" data-testid="first-event" data-state="received">
          ✓ First event received: <strong>{first.event}</strong> at {when(first.timestamp)}
        </p>
      ) : (
        <p class="onboarding-status waiting" role="status" data-testid="first-event" data-state="waiting">
          <span class="pulse" aria-hidden="true" /> Waiting for your first event…
        </p>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </section>
  );
}
