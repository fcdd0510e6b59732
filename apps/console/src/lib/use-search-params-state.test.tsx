import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useSearchParamsState, useSearchText } from './use-search-params-state';

/** The hook inside a real (memory) router, so history entries can be walked back. */
function renderAt(url: string) {
  let router!: ReturnType<typeof createMemoryRouter>;
  const wrapper = ({ children }: { children: ReactNode }) => {
    router ??= createMemoryRouter([{ path: '/list', element: children }], { initialEntries: [url] });
    return <RouterProvider router={router} />;
  };
  const hook = renderHook(() => useSearchParamsState({ q: '', sort: 'name', type: '' }), { wrapper });
  return { ...hook, router: () => router };
}

describe('useSearchParamsState', () => {
  it('reads the query string, with defaults for what is absent', () => {
    const { result } = renderAt('/list?q=печь&other=1');
    expect(result.current[0]).toEqual({ q: 'печь', sort: 'name', type: '' });
  });

  it('writes changes to the URL, leaves defaults out, keeps parameters it does not own; back undoes a step', async () => {
    const { result, router } = renderAt('/list?other=1');
    await act(async () => result.current[1]({ type: '3', sort: '-name' }));
    expect(router().state.location.search).toBe('?other=1&type=3&sort=-name');
    expect(result.current[0]).toEqual({ q: '', sort: '-name', type: '3' });

    // Typing replaces the entry instead of adding one per keystroke.
    await act(async () => result.current[1]({ q: 'п' }, { replace: true }));
    await act(async () => result.current[1]({ q: 'пе' }, { replace: true }));
    await act(async () => result.current[1]({ sort: 'name' }));
    expect(router().state.location.search).toBe('?other=1&type=3&q=%D0%BF%D0%B5');

    await act(async () => router().navigate(-1));
    expect(result.current[0]).toEqual({ q: 'пе', sort: '-name', type: '3' });
    await act(async () => router().navigate(-1));
    expect(result.current[0]).toEqual({ q: '', sort: 'name', type: '' });
  });
});

function SearchBox() {
  const [params, setParams] = useSearchParamsState({ q: '' });
  const [text, setText] = useSearchText(params.q, (q) => setParams({ q }, { replace: true }), 50);
  return (
    <label>
      Поиск
      <input value={text} onChange={(event) => setText(event.currentTarget.value)} />
    </label>
  );
}

describe('useSearchText', () => {
  it('keeps every keystroke, writes the text to the URL after a pause, and follows outside changes', async () => {
    const router = createMemoryRouter([{ path: '/list', element: <SearchBox /> }], {
      initialEntries: ['/list?q=а'],
    });
    render(<RouterProvider router={router} />);
    const box = screen.getByRole('textbox', { name: 'Поиск' });
    expect(box).toHaveValue('а');
    await userEvent.type(box, 'бвгд');
    expect(box).toHaveValue('абвгд');
    await waitFor(() => expect(router.state.location.search).toBe('?q=%D0%B0%D0%B1%D0%B2%D0%B3%D0%B4'));

    await act(() => router.navigate('/list?q=е'));
    expect(box).toHaveValue('е');
  });
});
