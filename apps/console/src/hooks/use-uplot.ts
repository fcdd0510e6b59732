import { useEffect, useMemo, useRef, type RefObject } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Whether this browser can draw on a canvas (a DOM without layout, as in some tests, cannot). */
function canDraw(): boolean {
  if (typeof Path2D === 'undefined') return false;
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

/** Whether charts can be drawn here, read once per component. */
export function useCanDraw(): boolean {
  return useMemo(canDraw, []);
}

export interface UplotOptions {
  /** The plot's element. */
  target: RefObject<HTMLDivElement | null>;
  /**
   * Builds the chart in the element (reading its width from it), or `null` while there is nothing
   * to draw. The caller memoises it: another function builds the chart again.
   */
  create: ((target: HTMLDivElement) => uPlot) | null;
  /**
   * Build in a task of its own after mounting: uPlot's first draw is one piece of work that cannot
   * be sliced, so a page showing a chart at once keeps its render and the draw apart.
   */
  deferred?: boolean;
  /** Told when the chart goes (built again, or unmounted). */
  onDestroy?: () => void;
}

/**
 * A uPlot chart's life in a component: built by `create`, again when `create` changes, resized with
 * its element's width, destroyed with the component. Returns the chart of the moment (`null` while
 * there is none), for the component to give it new data, series or a redraw.
 */
export function useUplot({
  target,
  create,
  deferred = false,
  onDestroy,
}: UplotOptions): RefObject<uPlot | null> {
  const chartRef = useRef<uPlot | null>(null);
  const onDestroyRef = useRef(onDestroy);
  useEffect(() => {
    onDestroyRef.current = onDestroy;
  }, [onDestroy]);

  useEffect(() => {
    const element = target.current;
    if (!element || !create) return;
    let chart: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    const build = () => {
      const built = create(element);
      chart = built;
      chartRef.current = built;
      observer = new ResizeObserver((entries) => {
        const box = entries[0]?.contentRect;
        if (box && box.width > 0 && Math.abs(box.width - built.width) >= 1) {
          built.setSize({ width: box.width, height: built.height });
        }
      });
      observer.observe(element);
    };
    const timer = deferred ? setTimeout(build, 0) : undefined;
    if (!deferred) build();
    return () => {
      clearTimeout(timer);
      observer?.disconnect();
      chart?.destroy();
      chartRef.current = null;
      onDestroyRef.current?.();
    };
  }, [target, create, deferred]);

  return chartRef;
}
