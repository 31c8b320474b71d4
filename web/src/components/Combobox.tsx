// A text box with a list of options loaded as the user types (ARIA combobox + listbox). With
// `free`, typed text that matches no option is taken as is (Enter or leaving the box).
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { Option } from '../lib/definitions';

export function Combobox({ label, value, load, onPick, free = false, clearOnPick = false, placeholder, name, unseen }: {
  /** The accessible name (tests and screen readers find the box by it). */
  label: string;
  /** The text shown while not editing. */
  value: string;
  load: (search: string, signal: AbortSignal) => Promise<Option[]>;
  onPick: (option: Option) => void;
  free?: boolean;
  clearOnPick?: boolean;
  placeholder?: string;
  name?: string;
  /**
   * The option for a typed name nothing matches (PostHog's "Select event: … Not seen yet"): an event
   * may be asked for before it is first captured.
   */
  unseen?: (typed: string) => Option;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<Option[]>([]);
  const [active, setActive] = useState(-1);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => { if (!open) setText(value); }, [value, open]);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setState('loading');
    // Wait for a pause in typing before asking the server.
    const timer = setTimeout(() => {
      load(search, controller.signal)
        .then((found) => {
          const typed = search.trim();
          const shown = found.length === 0 && unseen && typed ? [{ ...unseen(typed), unseen: true }] : found;
          setOptions(shown);
          setActive(shown.length > 0 && !free ? 0 : -1);
          setState('idle');
        })
        .catch((e) => { if ((e as Error).name !== 'AbortError') setState('failed'); });
    }, 150);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [open, search]);

  const pick = (option: Option) => {
    setOpen(false);
    setText(clearOnPick ? '' : option.label);
    setSearch('');
    onPick(option);
  };
  const takeTyped = () => {
    const typed = text.trim();
    if (free && typed && typed !== value) pick({ value: typed, label: typed });
    else { setOpen(false); setText(value); }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) { setOpen(true); return; }
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => Math.max(-1, Math.min(options.length - 1, a + step)));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const option = options[active];
      if (open && option) pick(option);
      else takeTyped();
    } else if (e.key === 'Escape') {
      setOpen(false);
      setText(value);
    }
  };

  const listId = `${id}-list`;
  return (
    <span class="combobox">
      <input
        ref={input}
        role="combobox"
        aria-label={label}
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${id}-${active}` : undefined}
        autoComplete="off"
        name={name}
        placeholder={placeholder}
        value={text}
        onFocus={() => { setSearch(''); setOpen(true); }}
        onClick={() => setOpen(true)}
        onInput={(e) => { const t = (e.currentTarget as HTMLInputElement).value; setText(t); setSearch(t); setOpen(true); }}
        onKeyDown={onKeyDown}
        onBlur={takeTyped}
      />
      {open && (
        <ul id={listId} role="listbox" aria-label={label} class="listbox">
          {options.map((option, i) => (
            <li
              id={`${id}-${i}`}
              role="option"
              aria-selected={i === active}
              data-value={option.value}
              // mousedown, not click: the box must not lose focus (and commit) first.
              onMouseDown={(e) => { e.preventDefault(); pick(option); }}
              onMouseEnter={() => setActive(i)}
            >
              <span>{option.label}</span>
              {(option as { unseen?: boolean }).unseen && <span class="tag caution">Not seen yet</span>}
              {option.hint && <span class="muted hint" aria-hidden="true">{option.hint}</span>}
            </li>
          ))}
          {state === 'loading' && options.length === 0 && <li class="muted note">Loading…</li>}
          {state === 'failed' && <li class="muted note">Could not load the list{free ? '; type a value' : ''}.</li>}
          {state === 'idle' && options.length === 0 && <li class="muted note">{free ? 'No suggestions; press Enter to use what you typed.' : 'Nothing matches.'}</li>}
        </ul>
      )}
    </span>
  );
}
