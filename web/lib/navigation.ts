/** Full-page navigations and reloads, behind one seam so tests and code read the same. */
export function reloadPage(): void {
  window.location.reload();
}
