// Claiming the embedded event store's directory (owner.pid) from separate processes at the same
// instant: exactly one wins, whether the directory is free or holds a dead process's lock.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLAIMERS = 3;
const ROUNDS = 40;
const DEAD_PID = '999999999'; // above any pid_max, so never a live process
/** Most rounds start from a dead owner's lock (the takeover), the others from a free directory. */
const stale = (round: number) => round % 4 !== 0;

// A claimer process: for each line "<directory> <instant>" it waits for the instant, claims the
// directory and answers how it went. It stays alive throughout, so every claim it won stays live.
const CLAIMER = `
import readline from 'node:readline';
import { claimEventStore } from './owner-lock.mjs';
const now = () => performance.timeOrigin + performance.now();
process.stdout.write('ready\\n');
for await (const line of readline.createInterface({ input: process.stdin })) {
  const [directory, startAt] = line.split(' ');
  while (now() < Number(startAt));
  let outcome;
  try { claimEventStore(directory); outcome = 'won'; } catch (error) { outcome = error.name === 'EventStoreBusyError' ? 'busy' : 'error: ' + error.message; }
  process.stdout.write(outcome + '\\n');
}
`;

type Claimer = ChildProcessByStdio<Writable, Readable, null>;

/** The next line a child writes, each asked for before it can arrive. */
function lineReader(child: Claimer): () => Promise<string> {
  const waiting: Array<(line: string) => void> = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      waiting.shift()?.(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
    }
  });
  child.on('exit', () => waiting.splice(0).forEach((resolve) => resolve('exited')));
  return () => new Promise<string>((resolve) => waiting.push(resolve));
}

describe('the event store directory claim (owner.pid)', () => {
  let work: string;
  let children: Claimer[];
  let nextLine: Array<() => Promise<string>>;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-owner-lock-'));
    // The claim code as it is, without types, for plain node processes.
    const source = fs.readFileSync(path.resolve('src/storage/events/owner-lock.ts'), 'utf8');
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    fs.writeFileSync(path.join(work, 'owner-lock.mjs'), outputText);
    fs.writeFileSync(path.join(work, 'claimer.mjs'), CLAIMER);
    children = Array.from({ length: CLAIMERS }, () => spawn(process.execPath, [path.join(work, 'claimer.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] }));
    nextLine = children.map(lineReader);
    expect(await Promise.all(nextLine.map((next) => next()))).toEqual(Array(CLAIMERS).fill('ready'));
  });
  afterAll(async () => {
    await Promise.all(children.map((child) => new Promise((resolve) => {
      child.on('exit', resolve);
      child.stdin.end();
    })));
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('of processes claiming at once, exactly one wins, over a free directory or a dead owner’s lock', async () => {
    const winners: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const directory = path.join(work, `store-${round}`);
      fs.mkdirSync(directory);
      if (stale(round)) fs.writeFileSync(path.join(directory, 'owner.pid'), DEAD_PID);
      const answers = nextLine.map((next) => next());
      const startAt = Date.now() + 20;
      for (const child of children) child.stdin.write(`${directory} ${startAt}\n`);
      const outcomes = await Promise.all(answers);
      expect(outcomes.every((o) => o === 'won' || o === 'busy'), outcomes.join(', ')).toBe(true);
      winners.push(outcomes.filter((o) => o === 'won').length);
      // Nothing is left beside the lock.
      expect(fs.readdirSync(directory)).toEqual(['owner.pid']);
    }
    expect(winners).toEqual(Array(ROUNDS).fill(1));
  });
});
