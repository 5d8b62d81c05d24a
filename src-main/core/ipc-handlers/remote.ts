/** remote:* — remote access at this machine: the switch, waiting sign-ins, connections (src-main/core/remote/). */
import type { RequestArgs, RequestResults } from '../../../src-shared/ipc-contract.ts';
import type { TrayRemote } from '../remote/tray-remote.ts';

export function remoteHandlers(remote: TrayRemote) {
  return {
    'remote:get': (): Promise<RequestResults['remote:get']> => remote.view(),
    'remote:turn-on': (input: RequestArgs<'remote:turn-on'>): Promise<RequestResults['remote:turn-on']> =>
      remote.turnOn(input.publicUrl),
    'remote:turn-off': (): Promise<RequestResults['remote:turn-off']> => remote.turnOff(),
    'remote:approve': (input: RequestArgs<'remote:approve'>): Promise<RequestResults['remote:approve']> =>
      remote.approve(input.id, {
        ...(input.level ? { level: input.level } : {}),
        ...(input.toolsets ? { toolsets: input.toolsets } : {}),
        ...(input.graphs ? { graphs: input.graphs } : {}),
      }),
    'remote:deny': (input: RequestArgs<'remote:deny'>): Promise<RequestResults['remote:deny']> =>
      remote.deny(input.id),
    'remote:revoke': (input: RequestArgs<'remote:revoke'>): Promise<RequestResults['remote:revoke']> =>
      remote.revoke(input.id),
  };
}
