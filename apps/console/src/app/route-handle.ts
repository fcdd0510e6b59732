import type en from '../locales/en/translation.json';

/** What an account route tells the frame about itself (React Router's `handle`). */
export interface RouteHandle {
  /** The page's title (an English catalogue key): the frame shows it as the `h1` at once. */
  title?: keyof typeof en;
}
