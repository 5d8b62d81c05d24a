import { useEffect, useState } from 'react';
import { nicknameProblem, printableLabel } from '../../../src-shared/graph-identity.ts';
import { describeError } from '../../bridge/bridge-error.ts';
import { useGraphs } from '../../stores/stores-context.tsx';

export type NicknameCheck = { state: 'idle' | 'checking' | 'ok' } | { state: 'invalid'; message: string };

/**
 * Live nickname validation, re-run on every edit: invisible characters and mixed alphabets are
 * refused at once (the shared rule, src-shared/graph-identity.ts); uniqueness against the other
 * graphs' nicknames and names is asked of the core ('graphs:check-nickname').
 */
export function useNicknameCheck(
  nickname: string,
  target: { exceptId?: string; name?: string } = {},
): NicknameCheck {
  const { exceptId, name } = target;
  const checkNickname = useGraphs((s) => s.checkNickname);
  const [result, setResult] = useState<{ for: string; check: NicknameCheck }>({
    for: '',
    check: { state: 'idle' },
  });
  const trimmed = nickname.trim();
  const problem = trimmed ? nicknameProblem(trimmed) : undefined;
  useEffect(() => {
    if (!trimmed || problem) return;
    let current = true; // answers to older keystrokes are dropped
    checkNickname({ nickname: trimmed, exceptId, name }).then(
      (answer) => {
        if (current)
          setResult({
            for: trimmed,
            check: answer.ok ? { state: 'ok' } : { state: 'invalid', message: answer.message },
          });
      },
      (error: unknown) => {
        if (current) setResult({ for: trimmed, check: { state: 'invalid', message: describeError(error) } });
      },
    );
    return () => {
      current = false;
    };
  }, [trimmed, problem, exceptId, name, checkNickname]);
  if (!trimmed) return { state: 'idle' };
  if (problem) return { state: 'invalid', message: `The nickname '${printableLabel(trimmed)}' ${problem}.` };
  return result.for === trimmed ? result.check : { state: 'checking' };
}
