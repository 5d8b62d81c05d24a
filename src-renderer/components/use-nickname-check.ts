import { useEffect, useState } from 'react';
import { describeError } from '../bridge/bridge-error.ts';
import { useGraphs } from '../stores/stores-context.tsx';

export type NicknameCheck = { state: 'idle' | 'checking' | 'ok' } | { state: 'invalid'; message: string };

/** Live nickname validation ('graphs:check-nickname'): unique case-insensitively, re-run on every edit. */
export function useNicknameCheck(nickname: string, exceptId?: string): NicknameCheck {
  const checkNickname = useGraphs((s) => s.checkNickname);
  const [result, setResult] = useState<{ for: string; check: NicknameCheck }>({
    for: '',
    check: { state: 'idle' },
  });
  const trimmed = nickname.trim();
  useEffect(() => {
    if (!trimmed) return;
    let current = true; // answers to older keystrokes are dropped
    checkNickname(trimmed, exceptId).then(
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
  }, [trimmed, exceptId, checkNickname]);
  if (!trimmed) return { state: 'idle' };
  return result.for === trimmed ? result.check : { state: 'checking' };
}
