import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ScreenTitle } from './screen-title';

/** Two frames: the title's own, and one more in which a wrong focus would have shown. */
const frames = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

function Screen({ focused }: { focused?: 'banner' | 'field' }) {
  return (
    <MantineProvider>
      <main>
        <button type="button" autoFocus={focused === 'banner'}>
          Пополнить
        </button>
        <ScreenTitle>Новое событие</ScreenTitle>
        <input aria-label="Устройство" autoFocus={focused === 'field'} />
      </main>
    </MantineProvider>
  );
}

describe('ScreenTitle', () => {
  it('takes the focus when the screen appears', async () => {
    render(<Screen />);
    await frames();
    expect(screen.getByRole('heading', { level: 1, name: 'Новое событие' })).toHaveFocus();
  });

  it('leaves it on a field of the screen that had it before the title’s effect ran', async () => {
    // autoFocus focuses the field in the commit, before the effect: as a click right after paint.
    render(<Screen focused="field" />);
    await frames();
    expect(screen.getByRole('textbox', { name: 'Устройство' })).toHaveFocus();
  });

  it('takes it from an element above the title, which the new screen did not bring', async () => {
    render(<Screen focused="banner" />);
    await frames();
    expect(screen.getByRole('heading', { level: 1, name: 'Новое событие' })).toHaveFocus();
  });
});
