import { Title, type TitleProps } from '@mantine/core';
import { useEffect, useRef } from 'react';

/**
 * The `h1` of a screen. It takes focus when the screen appears, so keyboard and screen-reader users
 * start at the top of the new screen instead of on a button that no longer exists.
 */
export function ScreenTitle(props: Omit<TitleProps, 'order'>) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // In the next frame, not in the commit that mounts the screen: focus() needs the page's
    // layout, which the frame computes anyway, and forcing it here made the first commit of every
    // page one long task.
    // Focus that moved meanwhile (the person clicked into a field) is left where it is.
    const before = document.activeElement;
    const frame = requestAnimationFrame(() => {
      if (document.activeElement === before) ref.current?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, []);
  return <Title order={1} ref={ref} tabIndex={-1} style={{ outline: 'none' }} {...props} />;
}
