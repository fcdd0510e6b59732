import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Screen state kept in the query string (search text, sort, filters), so back/forward, reload and a
 * shared link all show the same list. `defaults` names the parameters this screen owns and their
 * values when absent; a value equal to its default is left out of the URL, and parameters the
 * screen does not own are kept as they are.
 *
 * `set(patch)` adds a history entry (each filter choice is a step back); pass `{replace: true}` for
 * changes that come keystroke by keystroke, such as a search box.
 *
 * ```ts
 * const [params, setParams] = useSearchParamsState({ q: '', sort: 'name', type: '' });
 * setParams({ type: '3' });
 * setParams({ q: 'печь' }, { replace: true });
 * ```
 */
export function useSearchParamsState<K extends string>(
  defaults: Readonly<Record<K, string>>,
): [
  Readonly<Record<K, string>>,
  (patch: Partial<Record<K, string>>, options?: { replace?: boolean }) => void,
] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const searchParams = useMemo(() => new URLSearchParams(search), [search]);
  // The query string the next change builds on: the URL of this render, or the one last asked for
  // if that navigation has not rendered yet, so two quick changes (or a handler created a few
  // renders ago) never undo each other.
  const latest = useRef(search);
  const rendered = useRef(search);
  if (rendered.current !== search) {
    rendered.current = search;
    latest.current = search;
  }
  // This screen's parameters present in the URL, as a query string: the values are recomputed only
  // when it changes (not for another screen's parameter), so memoised filters downstream hold.
  // The defaults are a constant of the screen: those of its first render are kept.
  const [screenDefaults] = useState(defaults);
  const own = new URLSearchParams();
  for (const key of Object.keys(screenDefaults)) {
    const value = searchParams.get(key);
    if (value !== null) own.set(key, value);
  }
  const signature = own.toString();
  const values = useMemo(() => {
    const present = new URLSearchParams(signature);
    return Object.fromEntries(
      (Object.keys(screenDefaults) as K[]).map((key) => [key, present.get(key) ?? screenDefaults[key]]),
    ) as Record<K, string>;
  }, [signature, screenDefaults]);
  const set = useCallback(
    (patch: Partial<Record<K, string>>, options: { replace?: boolean } = {}) => {
      const next = new URLSearchParams(latest.current);
      for (const [key, value] of Object.entries(patch) as [K, string | undefined][]) {
        if (value === undefined || value === screenDefaults[key]) next.delete(key);
        else next.set(key, value);
      }
      const query = next.toString();
      latest.current = query ? `?${query}` : '';
      void navigate(`?${query}`, { replace: options.replace ?? false, preventScrollReset: true });
    },
    // `navigate` is stable in a data router.
    [navigate, screenDefaults],
  );
  return [values, set];
}

/**
 * The text of a search box whose value lives in the query string. A data router applies a URL change
 * a moment later, so a box bound straight to the URL would drop keystrokes typed in between: the box
 * keeps its own text, writes it to the URL after a pause in typing (`write`, e.g.
 * `(q) => setParams({q}, {replace: true})`), and takes the URL's value when it changes from outside
 * (back/forward, a link, a reset button).
 */
export function useSearchText(
  fromUrl: string,
  write: (text: string) => void,
  delayMs = 300,
): [string, (text: string) => void] {
  const [text, setText] = useState(fromUrl);
  const written = useRef(fromUrl);
  const writeRef = useRef(write);
  writeRef.current = write;
  useEffect(() => {
    // Our own write coming back is not news; anything else is.
    if (fromUrl !== written.current) {
      written.current = fromUrl;
      setText(fromUrl);
    }
  }, [fromUrl]);
  useEffect(() => {
    if (text === written.current) return;
    const timer = setTimeout(() => {
      written.current = text;
      writeRef.current(text);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);
  return [text, setText];
}
