/**
 * Text made safe to put between HTML tags or inside a quoted attribute: `&`, `<`, `>`, `"` and `'`
 * become numeric character references. For the few pages the server writes itself (the sandbox
 * payment page, the account frame).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
