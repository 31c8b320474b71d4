// The `hoglet` command: serve, bootstrap, users, keys, import, demo, capture reinsert, backup, restore, migrate.
import { Command, Option } from 'commander';
import { ConfigError, loadConfig, type Config, type ConfigFlags } from './config.js';
import { DEFAULT_ORGANIZATION_NAME, DEFAULT_PROJECT_NAME } from './core/accounts/service.js';
import { parseScopeList } from './core/scopes.js';
import { localUrl } from './local-url.js';
import { ApiError } from './errors.js';
import { createAccountServices, type AccountServices } from './services.js';
import { isDiskTrouble } from './storage/unavailable.js';
import { HOGLET_VERSION } from './version.js';

/** A command that could not do what was asked; printed without a stack trace. */
class CliFailure extends Error {}

interface CommonFlags extends ConfigFlags {
  json?: boolean;
}

const dataDirOption = () => new Option('--data-dir <dir>', 'data directory (env HOGLET_DATA_DIR, default ./data)');

function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Opens the metadata store for one command and always closes it. The event store is left alone:
 * a running server owns it.
 */
async function withServices<T>(flags: ConfigFlags, work: (services: AccountServices, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig(flags);
  const services = await createAccountServices(config);
  try {
    return await work(services, config);
  } finally {
    await services.close();
  }
}

/** The first line of standard input (a pipe or a prompt), without its line break. */
async function readPasswordFromStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password: ');
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') throw new CliFailure('no password given (pass --password or write it to standard input)');
  return line;
}

const program = new Command('hoglet')
  .description('Hoglet: a PostHog-compatible product-analytics server in one process')
  // Answered by printVersion below (commander's own would not read --data-dir); listed here for --help.
  .version(HOGLET_VERSION, '-V, --version', "print Hoglet's version (with --data-dir, also that directory's migration levels)")
  .showHelpAfterError();

/** `hoglet --version [--data-dir D]`: the version, and with a data directory its migration levels. */
async function printVersion(args: string[]): Promise<void> {
  const flags = new Command('hoglet').option('-V, --version').addOption(dataDirOption()).parse(args, { from: 'user' }).opts<ConfigFlags>();
  print(HOGLET_VERSION);
  if (flags.dataDir === undefined && process.env.HOGLET_DATA_DIR === undefined) return;
  const { collectDataStatus } = await import('./status/data-status.js');
  const status = await collectDataStatus(loadConfig(flags));
  const { migrations: m } = status;
  print(`metadata migration level:    ${m.metadata ?? 'none'} (this version: ${m.current.metadata})`);
  print(`event store migration level: ${m.events ?? 'none'} (this version: ${m.current.events})`);
  for (const why of status.unread) process.stderr.write(`could not read ${why}\n`);
}

program
  .command('serve')
  .description('run the HTTP server')
  .addOption(dataDirOption())
  .option('--port <port>', 'port to listen on (env PORT, default 8000)')
  .option('--host <host>', 'address to listen on (env HOST, default 127.0.0.1)')
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent (env HOGLET_LOG_LEVEL)')
  .action(async (flags: ConfigFlags) => {
    const config = loadConfig(flags);
    const { serve } = await import('./main.js');
    await serve(config);
  });

program
  .command('bootstrap')
  .description('create (or reuse) a user, their organization and a project, and issue a personal API key')
  .requiredOption('--email <email>', "the user's email")
  .option('--organization <name>', 'organization name', DEFAULT_ORGANIZATION_NAME)
  .option('--project <name>', 'project name', DEFAULT_PROJECT_NAME)
  .option('--scopes <list>', 'comma-separated scopes, e.g. project:read,insight:write; * for all', '*')
  .option('--label <label>', 'label of the new key', 'bootstrap')
  .option('--password <password>', 'also set the password the user signs in to the web app with')
  .option('--json', 'print one JSON object')
  .addOption(dataDirOption())
  .action(async (flags: CommonFlags & { email: string; organization: string; project: string; scopes: string; label: string; password?: string }) => {
    const config = loadConfig(flags);
    const result = await withServices(flags, (services) =>
      services.accounts.bootstrap({
        email: flags.email,
        organizationName: flags.organization,
        projectName: flags.project,
        scopes: parseScopeList(flags.scopes),
        label: flags.label,
        password: flags.password,
      }),
    );
    if (flags.json) return print(JSON.stringify(result));
    const url = localUrl(config.host, config.port);
    print(
      [
        `organization_id:   ${result.organization_id}`,
        `project_id:        ${result.project_id}`,
        `project_api_token: ${result.project_api_token}`,
        `user_id:           ${result.user_id}`,
        `personal_api_key:  ${result.personal_api_key}`,
        '',
        'The personal API key is shown only now; store it safely.',
        '',
        'Next:',
        `  start the server:  npm start   (or npx hoglet serve; it listens on ${url})`,
        flags.password === undefined
          ? `  sign in:           npx hoglet users set-password --email ${flags.email.trim()}, then open ${url}/`
          : `  sign in:           open ${url}/ as ${flags.email.trim()}`,
        `  send events:       any PostHog SDK with the token ${result.project_api_token} and host ${url}`,
        `  or demo data:      npx hoglet demo --project ${result.project_id}`,
        `  ask the API:       curl -H "Authorization: Bearer ${result.personal_api_key}" ${url}/api/projects/${result.project_id}/`,
      ].join('\n'),
    );
  });

const users = program.command('users').description('manage users');

users
  .command('set-password')
  .description("set a user's web app password (read from standard input without --password) and sign them out everywhere")
  .requiredOption('--email <email>', "the user's email")
  .option('--password <password>', 'the new password (visible in the process list and shell history: prefer standard input)')
  .addOption(dataDirOption())
  .action(async (flags: CommonFlags & { email: string; password?: string }) => {
    const password = flags.password ?? (await readPasswordFromStdin());
    await withServices(flags, (services) => services.accounts.setPassword(flags.email, password));
    print(`password set for ${flags.email.trim()}; their browser sessions are signed out`);
  });

const keys = program.command('keys').description('manage personal API keys');

keys
  .command('create')
  .description('issue a new personal API key for a user')
  .requiredOption('--email <email>', "the user's email")
  .requiredOption('--scopes <list>', 'comma-separated scopes; * for all')
  .option('--label <label>', 'label of the key', 'cli')
  .option('--json', 'print one JSON object')
  .addOption(dataDirOption())
  .action(async (flags: CommonFlags & { email: string; scopes: string; label: string }) => {
    const { key, value } = await withServices(flags, (services) =>
      services.accounts.createKey(flags.email, parseScopeList(flags.scopes), flags.label),
    );
    if (flags.json) return print(JSON.stringify({ id: key.id, label: key.label, scopes: key.scopes, personal_api_key: value }));
    print(`id:               ${key.id}\nscopes:           ${key.scopes.join(',')}\npersonal_api_key: ${value}`);
  });

keys
  .command('list')
  .description("list a user's personal API keys (values are never shown again)")
  .requiredOption('--email <email>', "the user's email")
  .option('--json', 'print a JSON array')
  .addOption(dataDirOption())
  .action(async (flags: CommonFlags & { email: string }) => {
    const list = await withServices(flags, (services) => services.accounts.listKeys(flags.email));
    if (flags.json) return print(JSON.stringify(list));
    if (list.length === 0) return print('no keys');
    for (const key of list) {
      print(`${key.id}  ${key.mask_value}  ${key.label}  scopes=${key.scopes.join(',')}  last_used=${key.last_used_at ?? 'never'}`);
    }
  });

keys
  .command('revoke <id>')
  .description('revoke a personal API key (running servers stop accepting it within a second)')
  .addOption(dataDirOption())
  .action(async (id: string, flags: CommonFlags) => {
    const revoked = await withServices(flags, (services) => services.accounts.revokeKey(id));
    if (!revoked) throw new CliFailure(`no key with id ${id}`);
    print(`revoked ${id}`);
  });

function parseProjectId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new CliFailure(`--project must be a project id (a number), got "${raw}"`);
  return Number(raw);
}

function parsePersons(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 1_000_000) throw new CliFailure(`--persons must be a number up to 1000000, got "${raw}"`);
  return Number(raw);
}

program
  .command('import <file>')
  .description("load events from a JSONL file in PostHog's export shape (one event per line)")
  .requiredOption('--project <id>', 'project to load the events into')
  .addOption(dataDirOption())
  .option('--port <port>', 'port of a running server (env PORT, default 8000)')
  .action(async (file: string, flags: CommonFlags & { project: string }) => {
    const projectId = parseProjectId(flags.project);
    const config = loadConfig(flags);
    const { importJsonl } = await import('./core/import/jsonl-import.js');
    const { openIngestTarget } = await import('./ingest-target.js');
    const { progressBar } = await import('./progress-bar.js');
    const target = await openIngestTarget(config, projectId);
    process.stderr.write(`importing into project ${projectId} through ${target.description}\n`);
    const bar = progressBar(process.stderr);
    let summary;
    try {
      summary = await importJsonl(file, target, (p) => bar.update(p.bytesRead / Math.max(p.totalBytes, 1), `${p.lines} lines`));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') throw new CliFailure(`cannot read ${file}: ${code}`);
      throw error;
    } finally {
      bar.done();
      await target.close();
    }
    print(`imported ${summary.imported} events from ${summary.lines} lines; skipped ${summary.skipped}`);
    for (const [reason, count] of Object.entries(summary.reasons)) print(`  skipped ${count}: ${reason}`);
    if (summary.imported === 0 && summary.skipped > 0) throw new CliFailure('no line of the file could be imported');
  });

program
  .command('demo')
  .description('fill a project with generated demo data (the same data all day: a second run that day adds nothing)')
  .requiredOption('--project <id>', 'project to fill')
  .addOption(dataDirOption())
  .option('--port <port>', 'port of a running server (env PORT, default 8000)')
  // A smaller demo, for tests and quick tries; hidden, since the documented demo is the full one.
  .addOption(new Option('--persons <n>', 'simulated people (default 3000)').argParser(parsePersons).hideHelp())
  .action(async (flags: CommonFlags & { project: string; persons?: number }) => {
    const projectId = parseProjectId(flags.project);
    const config = loadConfig(flags);
    const { openIngestTarget } = await import('./ingest-target.js');
    const { demoPeriodEnd, sendDemoData } = await import('./core/demo/send.js');
    const { DEFAULT_DEMO_DAYS } = await import('./core/demo/generate.js');
    const { EventsRepository } = await import('./storage/events/events-repository.js');
    const { progressBar } = await import('./progress-bar.js');
    const target = await openIngestTarget(config, projectId);
    const now = new Date();
    const end = demoPeriodEnd(now).toISOString().slice(0, 10);
    process.stderr.write(`generating demo data (the ${DEFAULT_DEMO_DAYS} days up to ${end} 00:00 UTC) into project ${projectId} through ${target.description}\n`);
    // In-process, the store says which events a run earlier today already stored.
    const stored = target.services ? new EventsRepository(target.services.events) : null;
    const bar = progressBar(process.stderr);
    let summary;
    try {
      summary = await sendDemoData(target, {
        now,
        ...(flags.persons === undefined ? {} : { persons: flags.persons }),
        onProgress: (p) => bar.update(p.fraction, `${p.sent} events`),
        ...(stored ? { existingUuids: (uuids: string[]) => stored.existingUuids(projectId, uuids) } : {}),
      });
    } finally {
      bar.done();
      await target.close();
    }
    if (summary.alreadyStored === null) {
      print(`sent ${summary.sent} demo events; the server stores each once, so any from an earlier run today were skipped`);
    } else {
      print(`stored ${summary.sent - summary.alreadyStored} new demo events (${summary.alreadyStored} already there)`);
    }
  });

const capture = program.command('capture').description("the capture log's events");

capture
  .command('reinsert')
  .description('insert again the acknowledged events the event store refused (set aside in capture-log/refused/); each file is removed once its events are stored')
  .addOption(dataDirOption())
  .option('--port <port>', 'port of a running server (env PORT, default 8000)')
  .action(async (flags: CommonFlags) => {
    const config = loadConfig(flags);
    const { reinsertSetAside } = await import('./capture-reinsert.js');
    const summary = await reinsertSetAside(config, (line) => process.stderr.write(`${line}\n`));
    if (summary.files === 0) {
      print(`no events are set aside in ${config.captureLogDir}/refused`);
      return;
    }
    print(`reinserted through ${summary.through}: ${summary.stored} event(s) stored from ${summary.files} file(s)`);
    for (const again of summary.refusedAgain) print(`  refused again, set aside anew: ${again.events} event(s): ${again.reason}`);
    for (const kept of summary.kept) print(`  kept ${kept.file}: ${kept.why}`);
    if (summary.refusedAgain.length > 0 || summary.kept.length > 0) throw new CliFailure('some set-aside events are still not stored');
  });

program
  .command('status')
  .description('what a data directory holds: sizes on disk, events and persons per project, migration levels, the capture log (safe beside a running server)')
  .option('--json', 'print one JSON object')
  .addOption(dataDirOption())
  .option('--port <port>', 'port of a running server, when it announced none (env PORT, default 8000)')
  .action(async (flags: CommonFlags) => {
    const { collectDataStatus } = await import('./status/data-status.js');
    const { formatDataStatus } = await import('./status/format.js');
    const status = await collectDataStatus(loadConfig(flags));
    print(flags.json ? JSON.stringify(status) : formatDataStatus(status));
  });

/** Step lines and a byte bar on standard error; what the bar is at resets with each step. */
async function byteProgress() {
  const { progressBar } = await import('./progress-bar.js');
  let bar: ReturnType<typeof progressBar> | null = null;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const started = Date.now();
  return {
    step(text: string) {
      bar?.done();
      bar = progressBar(process.stderr);
      process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${text}\n`);
    },
    bytes(done: number, total: number) {
      bar?.update(done / Math.max(total, 1), `${mb(done)} of ${mb(total)}`);
    },
    done() {
      bar?.done();
    },
  };
}

const sizeText = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`);

program
  .command('backup')
  .description('write a consistent copy of the data directory (metadata, events, persons, cohorts, the capture log) to one tar file, while the server runs')
  .requiredOption('--output <file>', 'the archive to write (must not exist)')
  .addOption(dataDirOption())
  .option('--port <port>', 'port of a running server (env PORT, default 8000)')
  .action(async (flags: CommonFlags & { output: string }) => {
    const config = loadConfig(flags);
    const { backupDataDir, BackupError } = await import('./backup.js');
    const progress = await byteProgress();
    try {
      const summary = await backupDataDir(config, flags.output, progress);
      progress.done();
      const { manifest } = summary;
      print(`backup of ${manifest.taken_at} written to ${flags.output}: ${sizeText(summary.bytes)} (through ${summary.through})`);
      if (config.recordingsObjectStorage) {
        const { bucket, prefix } = config.recordingsObjectStorage;
        print(`  recordings: not in this archive, they are in object storage (s3://${bucket}/${prefix}); keep them with the bucket's own versioning or replication`);
      }
      print(`  migrations: metadata ${manifest.migrations.metadata ?? 'none'}, event store ${manifest.migrations.event_store ?? 'none'}; capture log ${manifest.capture_log.bytes} bytes (records after ${manifest.capture_log.inserted_seq} are inserted when a restored server starts); inserts paused ${manifest.paused_ms} ms`);
    } catch (error) {
      progress.done();
      if (error instanceof BackupError) throw new CliFailure(error.message);
      throw error;
    }
  });

program
  .command('restore')
  .description('unpack a backup into a new or empty data directory; then start the server there')
  .requiredOption('--input <file>', 'the archive `hoglet backup` wrote')
  .addOption(dataDirOption())
  .action(async (flags: CommonFlags & { input: string }) => {
    const config = loadConfig(flags);
    const { restoreDataDir, BackupError } = await import('./backup.js');
    const progress = await byteProgress();
    try {
      const summary = await restoreDataDir(flags.input, config.dataDir, progress);
      progress.done();
      print(`restored ${sizeText(summary.bytes)} into ${config.dataDir}: the data as of ${summary.manifest.taken_at}`);
      print(`  start it: hoglet serve --data-dir ${config.dataDir}`);
    } catch (error) {
      progress.done();
      if (error instanceof BackupError) throw new CliFailure(error.message);
      throw error;
    }
  });

program
  .command('migrate')
  .description('apply metadata migrations and exit (serve does this too)')
  .addOption(dataDirOption())
  .action(async (flags: ConfigFlags) => {
    await withServices(flags, async () => undefined);
    print('metadata store is up to date');
  });

try {
  const args = process.argv.slice(2);
  // Options before any command: `--version` with or without `--data-dir D`, in either order.
  if (args[0]?.startsWith('-') && (args.includes('--version') || args.includes('-V'))) await printVersion(args);
  else await program.parseAsync(process.argv);
} catch (error) {
  const message =
    error instanceof ApiError || error instanceof ConfigError || error instanceof CliFailure
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error);
  // A full disk at start shows as SQLite's bare "disk I/O error": say what it means and what to do.
  const hint = isDiskTrouble(error)
    ? '\nhoglet: the disk holding the data is full or failing; free space and start again (nothing acknowledged is lost: docs/operating.md, "When the disk is full")'
    : '';
  process.stderr.write(`hoglet: ${message}${hint}\n`);
  process.exitCode = 1;
}
