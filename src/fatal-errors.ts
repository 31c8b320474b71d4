// A fatal error ends the server process (non-zero), so a supervisor restarts it, instead of a
// process that is alive but broken. Node already dies of an uncaught exception and of a
// rejection nobody handles; these listeners log it through the server's logger first.
// Abort (V8 out of heap, a native CHECK): chDB installs ClickHouse's handlers for fatal signals
// when its connections open, and its SIGABRT handler waits minutes for a log thread an embedded
// engine does not run, so an exhausted heap left the process hung at 0% CPU. A SIGABRT listener
// takes that signal back (installed after the event store opened): during abort() it returns at
// once and the abort ends the process; a SIGABRT sent from outside exits with 134.

export interface FatalErrorOptions {
  /** Logs what ended the process (the server's logger). */
  readonly log: (error: unknown, what: string) => void;
  readonly exit?: (code: number) => void;
}

/** Exit code of a process ended by SIGABRT (128 + 6), as a shell reports it. */
export const ABORT_EXIT_CODE = 134;

/** The listeners; call after the event store is open (so the SIGABRT one replaces chDB's). */
export function exitOnFatalErrors({ log, exit = (code) => process.exit(code) }: FatalErrorOptions): void {
  let ending = false;
  const fatal = (code: number, what: string) => (error: unknown) => {
    // A second fatal error while the first is logged must not log (or exit) twice.
    if (ending) return;
    ending = true;
    try {
      log(error, what);
    } finally {
      exit(code);
    }
  };
  process.on('uncaughtException', fatal(1, 'uncaught exception: exiting so a supervisor restarts the server'));
  process.on('unhandledRejection', fatal(1, 'unhandled promise rejection: exiting so a supervisor restarts the server'));
  process.on('SIGABRT', () => fatal(ABORT_EXIT_CODE, 'SIGABRT: exiting')(new Error('SIGABRT')));
}
