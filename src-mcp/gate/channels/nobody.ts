/**
 * Nobody can be asked: the graph's setting decides, the write goes ahead (the default; the undo
 * is there) or is refused (`whenNobodyCanAsk: "refuse"`, and always under `every-write` or with
 * an unusable ledger). Also the channel of an approved proposal's write: nobody is asked again.
 */
import type { ConsentChannel } from './channel.ts';

export const nobody: ConsentChannel = { name: 'none', serves: () => true };
