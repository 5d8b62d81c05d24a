/**
 * An in-memory RoamCompanionApi for component and store tests: records calls, lets a test
 * override any channel, and emits events as the core would. (E2E tests use the real core.)
 */
import { requestChannels } from '../../src-shared/constants.ts';
import type {
  AppSettings,
  AppStatus,
  ClientView,
  EventChannel,
  EventPayloads,
  GraphView,
  RequestChannel,
  RequestInput,
  RemoteView,
  RequestResults,
  RoamCompanionApi,
  TokenRequestView,
} from '../../src-shared/ipc-contract.ts';

type Handler<C extends RequestChannel> = (input: RequestInput<C>) => Promise<RequestResults[C]>;
export type Overrides = { [C in RequestChannel]?: Handler<C> };

export function graphView(name: string, extra: Partial<GraphView> = {}): GraphView {
  return {
    id: `hosted:${name}`,
    name,
    type: 'hosted',
    nickname: name,
    accessLevel: 'read-only',
    enabled: true,
    token: { state: 'ok', last4: 'ab12' },
    ...extra,
  };
}

export function requestView(graphId: string, extra: Partial<TokenRequestView> = {}): TokenRequestView {
  const startedAt = Date.now();
  return {
    graphId,
    status: 'waiting',
    requestedAccessLevel: 'full',
    startedAt,
    expiresAt: startedAt + 5 * 60_000,
    ...extra,
  };
}

export interface FakeApi {
  api: RoamCompanionApi;
  calls: Array<{ channel: RequestChannel; input: unknown }>;
  emit<E extends EventChannel>(event: E, payload: EventPayloads[E]): void;
  graphs: GraphView[];
}

export function createFakeApi(overrides: Overrides = {}, initial: { graphs?: GraphView[] } = {}): FakeApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: FakeApi['calls'] = [];
  const state = { graphs: [...(initial.graphs ?? [])] };
  const status: AppStatus = { roam: { running: true, port: 3333, checkedAt: 0 }, mcpSessions: 2 };
  let settings: AppSettings = { launchAtLogin: false, defaultAccessLevel: 'read-only' };
  const remoteOff: RemoteView = { on: false, listening: false, waiting: [], connections: [] };
  const clients: ClientView[] = [
    {
      id: 'claude-desktop',
      name: 'Claude Desktop',
      configPath: '/home/u/claude.json',
      state: 'not-installed',
    },
  ];

  const emitEvent = <E extends EventChannel>(event: E, payload: EventPayloads[E]) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  // Like the core, every change to the graphs is announced with the whole list.
  const graphsChanged = () =>
    emitEvent(
      'graphs:changed',
      state.graphs.map((g) => ({ ...g })),
    );

  const defaults: { [C in RequestChannel]: Handler<C> } = {
    'graphs:list': async () => state.graphs,
    'graphs:available': async () => [],
    'graphs:add': async (input) => {
      const graph = graphView(input.name, {
        type: input.type ?? 'hosted',
        id: `${input.type ?? 'hosted'}:${input.name}`,
        nickname: input.nickname || input.name,
        description: input.description,
        accessLevel: input.accessLevel ?? 'read-only',
        token: { state: 'missing' },
      });
      state.graphs.push(graph);
      graphsChanged();
      return graph;
    },
    'graphs:update': async (input) => {
      const graph = state.graphs.find((g) => g.id === input.id);
      if (!graph) throw Object.assign(new Error(`No graph '${input.id}'.`), { code: 'NOT_FOUND' });
      Object.assign(graph, Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
      graphsChanged();
      return { ...graph };
    },
    'graphs:remove': async (input) => {
      state.graphs = state.graphs.filter((g) => g.id !== input.id);
      graphsChanged();
    },
    'graphs:check-nickname': async ({ nickname, exceptId }) =>
      state.graphs.some((g) => g.id !== exceptId && g.nickname.toLowerCase() === nickname.toLowerCase())
        ? { ok: false, message: `The nickname '${nickname}' is already used. Choose another.` }
        : { ok: true },
    'tokens:request': async (input) =>
      requestView(input.id, { requestedAccessLevel: input.accessLevel ?? 'read-only' }),
    'tokens:cancel': async () => undefined,
    'tokens:requests': async () => [],
    'tokens:dismiss': async () => undefined,
    'blocked:list': async () => [],
    'blocked:retry': async (input) => requestView(input.id),
    'clients:list': async () => clients,
    'clients:preview': async (input) => ({
      id: input.id,
      configPath: '/home/u/claude.json',
      action: input.action,
      before: '{}',
      after: '{"mcpServers":{"roam":{}}}',
      diff: '- {}\n+ {"mcpServers":{"roam":{}}}',
    }),
    'clients:install': async (input) => ({
      client: { ...clients.find((c) => c.id === input.id)!, state: 'installed' },
      changed: true,
      backupPath: `${clients.find((c) => c.id === input.id)!.configPath}.roam-companion-backup`,
    }),
    'clients:uninstall': async (input) => ({
      client: { ...clients.find((c) => c.id === input.id)!, state: 'not-installed' },
      changed: true,
    }),
    'clients:set-toolsets': async (input) => ({
      ...clients.find((c) => c.id === input.id)!,
      toolsets: input.toolsets,
    }),
    'clients:copy-command': async () => ({ copied: true, keyName: 'claude-code' }),
    'status:get': async () => status,
    'roam:open': async () => undefined,
    'http:retry': async () => undefined,
    'settings:get': async () => settings,
    'settings:set': async (input) => (settings = { ...settings, ...input }),
    'import:check': async () => ({ available: false, path: '', graphCount: 0 }),
    'import:run': async () => [],
    'import:dismiss': async () => undefined,
    'activity:list': async () => ({ chats: [], today: 0, truncated: false }),
    'activity:undo': async (input) => ({ dryRun: input.dryRun, changes: [], undone: 0, conflicts: 0 }),
    'proposals:list': async () => [],
    'proposals:answer': async () => ({ done: false, outcome: 'Nothing waits.' }),
    'keys:list': async () => [],
    'keys:revoke': async () => [],
    'diagnostics:copy': async () => ({ copied: true, problems: 0, warnings: 1 }),
    'remote:get': async () => remoteOff,
    'remote:turn-on': async () => remoteOff,
    'remote:turn-off': async () => remoteOff,
    'remote:approve': async () => remoteOff,
    'remote:deny': async () => remoteOff,
    'remote:revoke': async () => remoteOff,
  };

  const api: Record<string, unknown> = {};
  for (const channel of requestChannels) {
    api[channel] = (input: unknown) => {
      calls.push({ channel, input });
      const handler = (overrides[channel] ?? defaults[channel]) as (input: unknown) => Promise<unknown>;
      return handler(input);
    };
  }
  api.on = (event: string, listener: (payload: unknown) => void) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  };
  return {
    api: api as RoamCompanionApi,
    calls,
    get graphs() {
      return state.graphs;
    },
    emit: emitEvent,
  };
}
