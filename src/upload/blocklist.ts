// The same blocklist the push CLI applies, so inline `index` calls skip what a push would skip.
import { blockedByContent, blockedByName } from '../../cli/blocklist.mjs';

/** The blocklist family that excludes this file (by any folder, its name, or its content), or null. */
export function blockedFile(path: string, content: string): string | null {
  const segments = path.split('/');
  for (const dir of segments.slice(0, -1)) {
    const family = blockedByName(dir, true);
    if (family) return family;
  }
  return blockedByName(segments[segments.length - 1], false) ?? blockedByContent(content, new TextEncoder().encode(content).length);
}
