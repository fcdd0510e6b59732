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
    // Focus that moved meanwhile is left where it is, and so is focus on the screen's own content
    // below the title: a person (or a browser test) can click into a field after the screen is
    // painted but before this effect runs, and taking the focus away then closed the field's
    // dropdown and dropped what they had typed.
    const before = document.activeElement;
    const frame = requestAnimationFrame(() => {
      const title = ref.current;
      const active = document.activeElement;
      if (!title || active !== before || isBelow(title, active)) return;
      title.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, []);
  return <Title order={1} ref={ref} tabIndex={-1} style={{ outline: 'none' }} {...props} />;
}

/** Whether `element` is a part of the title's container that comes after the title. */
function isBelow(title: HTMLElement, element: Element | null): boolean {
  return (
    element !== null &&
    element !== title &&
    (title.parentElement?.contains(element) ?? false) &&
    (title.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0
  );
}
