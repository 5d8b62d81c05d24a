/**
 * The demo's approvals: where its `--mcp` stand-ins (scripts/demo-mcp.ts) ask the person, as the
 * app's `--mcp` asks in a message box (docs/tray.md, "Approvals"). The demo program listens on a
 * socket in its temporary HOME (a folder only its owner can open); each stand-in that finds it
 * there tells its roam-mcp child that someone is shown its proposals, and passes each waiting
 * change here, where the demo's terminal shows it and takes the answer (`y 1`, `k 1`); the answer
 * goes back the same way and runs through the child's own approval path, first answer wins. Each
 * change is shown in the tray UI's approvals panel too (`panel`), answered back the same way.
 * Only proposal messages travel: no uid, no one-time code, no token.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { boxText } from '../src-main/core/approvals/approval-text.ts';
import type { ProposalSource } from '../src-main/core/approvals/pending-proposals.ts';
import {
  childMessageSchema,
  parentMessageSchema,
  type ChildMessage,
  type ParentMessage,
} from '../src-shared/child-ipc.ts';
import type { ProposalView } from '../src-shared/ipc-contract.ts';

type ProposalMessage = Extract<ChildMessage, { type: 'proposal' | 'proposal-closed' | 'proposal-answered' }>;
type AnswerMessage = Extract<ParentMessage, { type: 'proposal-answer' }>;

const isProposalMessage = (message: ChildMessage): message is ProposalMessage =>
  message.type === 'proposal' || message.type === 'proposal-closed' || message.type === 'proposal-answered';

/** The socket in the demo HOME (a named pipe on Windows, named after the HOME). */
export function approvalsSocket(home: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32'
    ? `\\\\.\\pipe\\roam-companion-demo-approvals-${path.basename(home)}`
    : path.join(home, '.demo-approvals.sock');
}

/** Newline-delimited JSON on a socket: each line parsed, the rest ignored. */
function onLines(socket: Socket, heard: (value: unknown) => void): void {
  createInterface({ input: socket, crlfDelay: Infinity }).on('line', (line) => {
    try {
      heard(JSON.parse(line));
    } catch {
      // Not a message of ours: nothing to do with it.
    }
  });
}

const send = (socket: Socket, message: unknown) => {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
};

// ---------------------------------------------------------------------------------------------
// The stand-in's side

export interface ApprovalsLink {
  /** Hands one of the child's proposal messages to the demo. */
  tell(message: ProposalMessage): void;
  close(): void;
}

/**
 * Connects a stand-in to the demo's approvals, when the demo listens; undefined when it does not
 * (nobody can be asked then, as for any client without a way to ask). `answer` gets each answer.
 */
export function linkToApprovals(
  home: string,
  answer: (message: AnswerMessage) => void,
): Promise<ApprovalsLink | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection(approvalsSocket(home));
    socket.once('error', () => resolve(undefined));
    socket.once('connect', () => {
      socket.on('error', () => {});
      onLines(socket, (value) => {
        const parsed = parentMessageSchema.safeParse(value);
        if (parsed.success && parsed.data.type === 'proposal-answer') answer(parsed.data);
      });
      resolve({ tell: (message) => send(socket, message), close: () => socket.destroy() });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The demo's side

interface Waiting {
  number: number;
  proposal: ProposalView;
  from: Socket;
  /** Answered here: what became of it comes next (`proposal-answered`), after it closed. */
  answered?: boolean;
}

export interface ApprovalsDesk {
  /** A line typed in the demo's terminal: true when it was an answer (`y N`, `k N`). */
  typed(line: string): boolean;
  close(): Promise<void>;
}

const ANSWER = /^(y|k)\s*(\d+)?$/i;

/**
 * Listens for the stand-ins; `say` writes to the demo's terminal, and `panel` shows each stand-in's
 * proposals in the tray UI too (the browser's approvals panel), whose answer goes back to it.
 */
export async function startApprovalsDesk(
  home: string,
  say: (text: string) => void,
  panel?: (send: (message: ParentMessage) => void) => ProposalSource,
): Promise<ApprovalsDesk> {
  const socketPath = approvalsSocket(home);
  const waiting = new Map<string, Waiting>();
  let next = 1;
  const clients = new Set<Socket>();
  const server: Server = createServer((socket) => {
    clients.add(socket);
    const shown = panel?.((message) => send(socket, message));
    socket.on('error', () => {});
    socket.on('close', () => {
      clients.delete(socket);
      shown?.gone();
      for (const [id, item] of waiting) if (item.from === socket) waiting.delete(id);
    });
    onLines(socket, (value) => {
      const parsed = childMessageSchema.safeParse(value);
      if (!parsed.success) return;
      heard(parsed.data, socket);
      if (isProposalMessage(parsed.data)) shown?.heard(parsed.data);
    });
  });

  function heard(message: ChildMessage, from: Socket): void {
    if (message.type === 'proposal') {
      const item = { number: next++, proposal: message.proposal, from };
      waiting.set(message.proposal.id, item);
      say(shown(item, waiting.size - 1));
    } else if (message.type === 'proposal-closed') {
      const item = waiting.get(message.id);
      if (!item || item.answered) return;
      waiting.delete(message.id);
      say(`[${item.number}] no longer waits: it was answered in the chat, expired or was withdrawn.\n`);
    } else if (message.type === 'proposal-answered') {
      const item = waiting.get(message.id);
      waiting.delete(message.id);
      say(`[${item?.number ?? '?'}] ${message.outcome}\n`);
    }
  }

  await rm(socketPath, { force: true }).catch(() => {});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });

  return {
    typed(line) {
      const match = ANSWER.exec(line.trim());
      if (!match) return false;
      const items = [...waiting.values()].filter((i) => !i.answered);
      const number = match[2] === undefined ? undefined : Number(match[2]);
      const item =
        number === undefined
          ? items.length === 1
            ? items[0]
            : undefined
          : items.find((i) => i.number === number);
      if (!item) {
        say(
          items.length === 0
            ? 'No change waits for your answer.\n'
            : `Type y or k and the number of the change: ${items.map((i) => `[${i.number}]`).join(', ')}.\n`,
        );
        return true;
      }
      const answer = match[1]!.toLowerCase() === 'y' ? 'approve' : 'keep';
      item.answered = true;
      send(item.from, { type: 'proposal-answer', id: item.proposal.id, answer } satisfies AnswerMessage);
      say(`[${item.number}] ${answer === 'approve' ? 'Approving' : 'Keeping things as they are'}…\n`);
      return true;
    },
    async close() {
      for (const socket of clients) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A waiting change as the terminal shows it: the app's message box text, then how to answer. */
function shown({ number, proposal }: Waiting, more: number): string {
  const until = new Date(proposal.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const { message, detail } = boxText(proposal, more, until);
  // The box's last line speaks of its Later button, which the terminal has not.
  const lines = detail.split('\n').slice(0, -1);
  return [
    '',
    `[${number}] A change waits for your answer: ${message}`,
    ...lines.map((line) => (line ? `    ${line}` : '')),
    `    Type y ${number} to approve it, or k ${number} to keep things as they are (it waits until ${until}).`,
    '',
  ].join('\n');
}
