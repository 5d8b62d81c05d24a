import type { IncomingMessage } from 'node:http';

/**
 * The preview listens on 127.0.0.1 only; these checks also stop other web pages from reaching it
 * through the user's browser (DNS rebinding via Host, cross-site requests via Origin).
 */
export function rejectionReason(req: IncomingMessage, port: number): string | null {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!allowedHosts.includes(req.headers.host ?? '')) {
    return `Host '${req.headers.host ?? ''}' is not allowed: open the preview at http://127.0.0.1:${port}/.`;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts.some((host) => origin === `http://${host}`)) {
    return `Requests from '${origin}' are not allowed: only the preview page itself may call the bridge.`;
  }
  return null;
}
