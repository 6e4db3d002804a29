// Loaded only by a page drawn in answer to a POST: a step with problems to correct, a refusal, or
// a step drawn again with an entry added or removed. The browser's history then holds the page as
// a plain visit of its address, so Back and Reload load the page again instead of asking to send
// the form once more. Without scripts the browser asks, as it did before.
'use strict';
if (window.history && typeof window.history.replaceState === 'function') {
  window.history.replaceState(window.history.state, '', window.location.href);
}
