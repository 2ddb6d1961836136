// Small pieces of page UI every page shares (an ES module, no state of its own):
// notices, copying a link with feedback, dialogs.

// A notice in the page's message line. `kind`: "error" (a refusal, a lost server: drawn
// in error red) or "info" (the board's own news, a hint's word); site.css styles
// [data-kind]. An empty text clears the line.
export function say(text, kind = "error", el = document.getElementById("message")) {
  if (!el) return;
  el.textContent = text || "";
  el.dataset.kind = kind;
}

// Copy `field`'s value (an <input> holding a link) and tell how it went in `status`:
// `words.copied`, or `words.failed` with the link selected for the player to copy by
// hand (no clipboard permission: an http page, an old browser; then the old
// execCommand("copy") is tried on the selection). The feedback clears after `clearMs`
// (0: it stays). Resolves to whether the link was copied.
export async function copyLink(field, status, words, { clearMs = 0 } = {}) {
  let copied = false;
  try {
    await navigator.clipboard.writeText(field.value);
    copied = true;
  } catch (error) {
    field.focus();
    field.select();
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    if (!copied) { field.focus(); field.select(); }
  }
  if (status) {
    status.textContent = (copied ? words.copied : words.failed) || "";
    if (clearMs) setTimeout(() => { status.textContent = ""; }, clearMs);
  }
  return copied;
}

// Wire a Copy button: `button` copies `field` into `status` on each click.
export function copyButton(button, field, status, words, options) {
  button.addEventListener("click", () => copyLink(field, status, words, options));
}

// A modal <dialog>, opened with the focus on `focus` (else where the browser puts it:
// its first control, or one marked autofocus).
export function openDialog(dialog, focus = null) {
  if (!dialog.open) dialog.showModal();
  if (focus) focus.focus();
}

export function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}

// A yes-or-no question before an action that cannot be taken back (the browser's own
// confirm: modal, read by every screen reader, answered by the keyboard).
export const ask = (question) => window.confirm(question);

// The page's words: the per-page dictionary the view wrote with json_script (the one way
// strings reach the browser code: docs/ARCHITECTURE.md §The browser code).
export function pageStrings(id = "strings") {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : {};
}
