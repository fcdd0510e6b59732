import { Title, type TitleProps } from '@mantine/core';
import { useEffect, useRef } from 'react';

/**
 * The `h1` of a screen. It takes focus when the screen appears, so keyboard and screen-reader users
 * start at the top of the new screen instead of on a button that no longer exists.
 */
export function ScreenTitle(props: Omit<TitleProps, 'order'>) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);
  return <Title order={1} ref={ref} tabIndex={-1} style={{ outline: 'none' }} {...props} />;
}
