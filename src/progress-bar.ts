// A one-line progress bar on a terminal; on anything else (a pipe, a CI log) a line every 10%.
export interface ProgressBar {
  update(fraction: number, label: string): void;
  done(): void;
}

export function progressBar(out: NodeJS.WriteStream, width = 30): ProgressBar {
  let lastDecile = -1;
  let drawn = false;
  return {
    update(fraction, label) {
      const clamped = Math.min(1, Math.max(0, fraction));
      const percent = Math.floor(clamped * 100);
      if (out.isTTY) {
        const filled = Math.round(clamped * width);
        out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(percent).padStart(3)}%  ${label}`);
        drawn = true;
      } else if (Math.floor(percent / 10) > lastDecile) {
        lastDecile = Math.floor(percent / 10);
        out.write(`${percent}%  ${label}\n`);
      }
    },
    done() {
      if (drawn) out.write('\n');
    },
  };
}
