import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/**
 * Mantine's defaults with the contrast fixed (WCAG 2.1 AA): shade 6 of blue carries white text at
 * only 3.6:1, shade 8 at 5.0:1; the default error and dimmed texts fall under 4.5:1 in both schemes.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
});

/**
 * The variables the contrast fixes need. The console does not run this at start-up:
 * theme-variables.test.tsx writes what Mantine makes of it (and of the theme) into
 * theme-variables.css, which the provider loads.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // A disabled control's text and a field's placeholder are read too ("Сбросить масштаб" greyed
  // out was 2.47:1 in the dark scheme): they take the dimmed text's colour, at least 4.5:1.
  light: {
    '--mantine-color-error': 'var(--mantine-color-red-9)', // 5.5:1 on white (red-6: 3.3:1)
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', // 8.2:1 on white (gray-6: 3.3:1)
    '--mantine-color-disabled-color': 'var(--mantine-color-gray-7)', // 6.9:1 on gray-2 (gray-5: 1.8:1)
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)', // 8.2:1 on white (gray-5: 2.1:1)
  },
  dark: {
    '--mantine-color-error': 'var(--mantine-color-red-5)', // on dark-7 (red-8: 3.4:1)
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)', // 7.8:1 on dark-7 (dark-2: 4.0:1)
    '--mantine-color-disabled-color': 'var(--mantine-color-dark-1)', // 6.9:1 on dark-6 (dark-3: 2.47:1)
    '--mantine-color-placeholder': 'var(--mantine-color-dark-1)', // 6.9:1 on dark-6 (dark-3: 2.47:1)
  },
});
