import { useEffect, useRef, useState, type MouseEvent } from 'react';
import type { StatusCircle } from './status-circles';

/** The size, gap and padding of a `.dot` in `.dots` (dashboard.module.css): the same picture. */
const DOT = 12;
const STEP = DOT + 4;
const PAD = 2;
/** `.dot[data-status=…]`'s colours (dashboard.module.css). */
const ONLINE = '#2f9e44';
const OFFLINE = '#7f7f7f';
const PROBLEM = '#f03e3e';

/**
 * A group's status circles drawn on one canvas: a chain's tens of thousands of devices as elements
 * cost the page a third of a second of style and layout, and their creation as much again. Drawn
 * as the elements are (a filled circle online, a ring offline, a red diamond for a problem); the
 * pointer's device is named in the tooltip. Like the elements, decorative: `label` says in words
 * what it shows.
 */
export function DotCanvas({
  devices,
  group,
  label,
}: {
  devices: readonly StatusCircle[];
  group: 'online' | 'offline';
  label: string;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const parent = ref.current?.parentElement;
    if (!parent) return;
    setWidth(parent.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(parent.clientWidth));
    observer.observe(parent);
    return () => observer.disconnect();
  }, []);
  const perRow = Math.max(1, Math.floor((width - 2 * PAD + 4) / STEP));
  const height = 2 * PAD + Math.ceil(devices.length / perRow) * STEP;

  useEffect(() => {
    const canvas = ref.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context || width === 0) return;
    const scale = window.devicePixelRatio || 1;
    context.setTransform(scale, 0, 0, scale, 0, 0);
    context.clearRect(0, 0, width, height);
    devices.forEach((device, index) => {
      const x = PAD + (index % perRow) * STEP + DOT / 2;
      const y = PAD + Math.floor(index / perRow) * STEP + DOT / 2;
      context.beginPath();
      if (device.attention) {
        const half = (DOT / 2) * 0.85 * Math.SQRT2;
        context.moveTo(x, y - half);
        context.lineTo(x + half, y);
        context.lineTo(x, y + half);
        context.lineTo(x - half, y);
        context.closePath();
        context.fillStyle = PROBLEM;
        context.fill();
      } else if (group === 'online') {
        context.arc(x, y, DOT / 2, 0, 2 * Math.PI);
        context.fillStyle = ONLINE;
        context.fill();
      } else {
        context.arc(x, y, DOT / 2 - 1, 0, 2 * Math.PI);
        context.lineWidth = 2;
        context.strokeStyle = OFFLINE;
        context.stroke();
      }
    });
  }, [devices, group, width, height, perRow]);

  const nameAt = (event: MouseEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const column = Math.floor((event.clientX - box.left - PAD) / STEP);
    const row = Math.floor((event.clientY - box.top - PAD) / STEP);
    const device = column < perRow ? devices[row * perRow + column] : undefined;
    event.currentTarget.title = device?.name ?? '';
  };

  const scale = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  return (
    <canvas
      ref={ref}
      role="img"
      aria-label={label}
      width={Math.round(width * scale)}
      height={Math.round(height * scale)}
      style={{ display: 'block', width: '100%', height }}
      onMouseMove={nameAt}
      data-dot-count={devices.length}
    />
  );
}
