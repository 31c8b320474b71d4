// Copies a text to the clipboard. Without clipboard access (an http page, a denied permission)
// it falls back to selecting the text in a hidden box and the older copy command.
import { useState } from 'preact/hooks';

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const box = document.createElement('textarea');
    box.value = text;
    box.setAttribute('readonly', '');
    box.style.position = 'fixed';
    box.style.opacity = '0';
    document.body.appendChild(box);
    box.select();
    let done = false;
    try { done = document.execCommand('copy'); } catch { done = false; }
    box.remove();
    return done;
  }
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const click = async () => {
    setState((await copy(text)) ? 'copied' : 'failed');
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button type="button" onClick={click} aria-label={label}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : label}
    </button>
  );
}
