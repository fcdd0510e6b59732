import { useRef } from 'react';

/**
 * `value`, or the previous one while `equal` says nothing changed: memoised parts given it render
 * only when what they show changed (a live update that moves no counter renders no counter).
 */
export function useStableValue<T>(value: T, equal: (a: T, b: T) => boolean): T {
  const previous = useRef(value);
  if (previous.current !== value && !equal(previous.current, value)) previous.current = value;
  return previous.current;
}
