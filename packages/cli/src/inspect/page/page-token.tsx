// The page's copy of the server's token. `tooldock inspect` prints (and opens) its URL with
// the token in the fragment (`/#token=…`): a browser sends a fragment to no server and keeps
// it in no cookie, where every other port of 127.0.0.1 would receive it. The page takes it
// from there once, drops it from the address bar, and keeps it in this tab's sessionStorage
// (this origin's alone, port included) for reloads.

const STORAGE_KEY = "tooldock-inspect-token";
const FRAGMENT = /^#token=([A-Za-z0-9_-]+)$/;

function readToken(): string | undefined {
  const fromFragment = FRAGMENT.exec(location.hash)?.[1];
  if (fromFragment !== undefined) {
    try {
      sessionStorage.setItem(STORAGE_KEY, fromFragment);
    } catch {
      // No storage (a private mode that refuses it): the token lives as long as the page.
    }
    history.replaceState(null, "", `${location.pathname}${location.search}`);
    return fromFragment;
  }
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The token, read when the page starts; `undefined` when the page was opened without it. */
export const pageToken: string | undefined = readToken();

/** The header every API request carries. */
export function authorization(): Record<string, string> {
  return pageToken === undefined ? {} : { authorization: `Bearer ${pageToken}` };
}
