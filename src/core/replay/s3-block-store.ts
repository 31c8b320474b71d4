// Recordings in S3-compatible object storage (HOGLET_RECORDINGS_S3_*), as PostHog keeps its session
// recording blobs: the same gzip blocks and names as the file system store (block-store.ts), one
// object each at `<prefix>/<team>/<session>/<block name>`. A block is stored by one PUT, which S3
// acknowledges only once the object is durable, so /s/ answers 200 after it and a 503 (with
// Retry-After) when the object store fails: nothing is acknowledged that was not stored. Names come
// from the content, so a retried request rewrites the same object. Reads build the key from the
// project the caller was allowed, so another team's objects are out of reach.
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { ServiceUnavailableError } from '../../errors.js';
import {
  blockName,
  decodeBlock,
  decodeBlockText,
  legacyBlockName,
  isBlockName,
  sessionDirectoryName,
  sessionIdOf,
  type BlockInfo,
  type RecordingBlocks,
  type StoredBlock,
} from './block-store.js';
import { timesOfText, type BlockTimes } from './block-times.js';
import type { SnapshotLine } from './snapshots.js';

const gzipAsync = promisify(gzip);

export interface RecordingsObjectStorage {
  /** http(s):// URL of an S3-compatible server; null: AWS S3 of the region. */
  readonly endpoint: string | null;
  readonly bucket: string;
  readonly region: string;
  /** null: the SDK's default credential chain (environment, instance role). */
  readonly accessKeyId: string | null;
  readonly secretAccessKey: string | null;
  /** Keys start with it (no trailing slash); '' puts teams at the bucket's top. */
  readonly prefix: string;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>` (MinIO and most servers). */
  readonly forcePathStyle: boolean;
}

export class S3RecordingBlockStore implements RecordingBlocks {
  readonly backupDirectory = null;
  private readonly client: S3Client;

  constructor(private readonly storage: RecordingsObjectStorage) {
    this.client = new S3Client({
      region: storage.region,
      forcePathStyle: storage.forcePathStyle,
      ...(storage.endpoint ? { endpoint: storage.endpoint } : {}),
      ...(storage.accessKeyId && storage.secretAccessKey
        ? { credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey } }
        : {}),
      // A server that stops answering fails the request (503) rather than holding it.
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
      maxAttempts: 3,
    });
  }

  get description(): string {
    return `s3://${this.storage.bucket}/${this.storage.prefix}`;
  }

  private teamPrefix(teamId: number): string {
    return `${this.storage.prefix ? `${this.storage.prefix}/` : ''}${teamId}/`;
  }

  private sessionPrefix(teamId: number, sessionId: string): string {
    return `${this.teamPrefix(teamId)}${sessionDirectoryName(sessionId)}/`;
  }

  async write(teamId: number, sessionId: string, text: string, firstTimestampMs: number, times: BlockTimes = timesOfText(text)): Promise<StoredBlock> {
    const name = blockName(text, firstTimestampMs, times);
    const key = this.sessionPrefix(teamId, sessionId) + name;
    const rawBytes = Buffer.byteLength(text);
    // The same block stored under its name from before names held times (a retry across the upgrade) counts too.
    for (const stored of [name, legacyBlockName(text, firstTimestampMs)]) {
      const existing = await this.client.send(new HeadObjectCommand({ Bucket: this.storage.bucket, Key: this.sessionPrefix(teamId, sessionId) + stored })).catch((error: unknown) => {
        if (isNotFound(error)) return null;
        throw error;
      });
      if (existing) return { name: stored, rawBytes, compressedBytes: existing.ContentLength ?? 0, created: false };
    }
    const compressed = await gzipAsync(text, { level: 6 });
    await this.client.send(new PutObjectCommand({ Bucket: this.storage.bucket, Key: key, Body: compressed, ContentType: 'application/gzip' }));
    return { name, rawBytes, compressedBytes: compressed.length, created: true };
  }

  async list(teamId: number, sessionId: string): Promise<BlockInfo[]> {
    const prefix = this.sessionPrefix(teamId, sessionId);
    const blocks: BlockInfo[] = [];
    await this.eachPage(prefix, (page) => {
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(prefix.length) ?? '';
        if (isBlockName(name)) blocks.push({ name, compressedBytes: object.Size ?? 0 });
      }
    });
    return blocks.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async readBlock(teamId: number, sessionId: string, name: string): Promise<SnapshotLine[]> {
    if (!isBlockName(name)) throw new Error(`not a block name: ${name}`);
    const object = await unavailableOnFailure(() =>
      this.client.send(new GetObjectCommand({ Bucket: this.storage.bucket, Key: this.sessionPrefix(teamId, sessionId) + name })),
    );
    if (!object.Body) throw new ServiceUnavailableError('Recordings could not be read right now; retry shortly.');
    return decodeBlock(await object.Body.transformToByteArray());
  }

  async readBlockText(teamId: number, sessionId: string, name: string): Promise<string> {
    if (!isBlockName(name)) throw new Error(`not a block name: ${name}`);
    const object = await unavailableOnFailure(() =>
      this.client.send(new GetObjectCommand({ Bucket: this.storage.bucket, Key: this.sessionPrefix(teamId, sessionId) + name })),
    );
    if (!object.Body) throw new ServiceUnavailableError('Recordings could not be read right now; retry shortly.');
    return decodeBlockText(await object.Body.transformToByteArray());
  }

  async readSession(teamId: number, sessionId: string): Promise<SnapshotLine[]> {
    const lines: SnapshotLine[] = [];
    for (const block of await this.list(teamId, sessionId)) lines.push(...(await this.readBlock(teamId, sessionId, block.name)));
    return lines;
  }

  async removeSession(teamId: number, sessionId: string): Promise<void> {
    const prefix = this.sessionPrefix(teamId, sessionId);
    for (const block of await this.list(teamId, sessionId)) {
      await unavailableOnFailure(() => this.client.send(new DeleteObjectCommand({ Bucket: this.storage.bucket, Key: prefix + block.name })));
    }
  }

  async removeTeam(teamId: number): Promise<void> {
    const keys: string[] = [];
    await this.eachPage(this.teamPrefix(teamId), (page) => {
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    });
    for (const key of keys) await unavailableOnFailure(() => this.client.send(new DeleteObjectCommand({ Bucket: this.storage.bucket, Key: key })));
  }

  async sessionsOf(teamId: number): Promise<Array<{ sessionId: string; newestBlock: string }>> {
    const prefix = this.teamPrefix(teamId);
    const newest = new Map<string, string>();
    await this.eachPage(prefix, (page) => {
      for (const object of page.Contents ?? []) {
        const [session, name, ...rest] = (object.Key ?? '').slice(prefix.length).split('/');
        if (!session || !name || rest.length > 0 || !isBlockName(name)) continue;
        if ((newest.get(session) ?? '') < name) newest.set(session, name);
      }
    });
    return [...newest].map(([session, newestBlock]) => ({ sessionId: sessionIdOf(session), newestBlock }));
  }

  /** Object storage has no half-written blocks: a PUT stores the whole object or nothing. */
  async removeTemporaryFiles(): Promise<number> {
    return 0;
  }

  close(): void {
    this.client.destroy();
  }

  private async eachPage(prefix: string, visit: (page: ListObjectsV2CommandOutput) => void): Promise<void> {
    let token: string | undefined;
    do {
      const page = await unavailableOnFailure(() =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.storage.bucket, Prefix: prefix, ContinuationToken: token })),
      );
      visit(page);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** The object store's failure as PostHog's 503 body (with Retry-After), its cause kept for the log. */
async function unavailableOnFailure<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const failure = new ServiceUnavailableError('Recordings storage is unavailable right now; retry shortly.');
    failure.cause = error;
    throw failure;
  }
}
