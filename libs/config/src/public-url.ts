/** PUBLIC_BASE_URL without a trailing slash, ready to have paths appended. */
export function publicBase(url: string): string {
  return url.replace(/\/+$/, '');
}
