// The search field of a list page, and the text it searches for once typing pauses (one request
// per pause, not per key).
import { useEffect, useState } from 'preact/hooks';

/** `onSettle` runs with the new search in the same update (a list goes back to its first page). */
export function useDebouncedSearch(onSettle?: () => void, delayMs = 250): { typed: string; setTyped: (text: string) => void; search: string } {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      onSettle?.();
    }, delayMs);
    return () => clearTimeout(timer);
  }, [typed, delayMs]);
  return { typed, setTyped, search };
}

export function SearchBox({ label, placeholder, value, onInput }: { label: string; placeholder: string; value: string; onInput: (text: string) => void }) {
  return (
    <div class="filters" role="search">
      <input type="search" name="search" placeholder={placeholder} aria-label={label} value={value} onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)} />
    </div>
  );
}
