import { useEffect, useState } from 'react';

/** Time left until `until` (epoch ms) as m:ss, ticking every second. */
export function Countdown(props: { until: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.ceil((props.until - now) / 1000));
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <span className="countdown" aria-label={`${text} left`}>
      {text}
    </span>
  );
}
