/**
 * Texts from a graph, drawn isolated (`<bdi>`): a right-to-left mark or override in a title or a
 * block never reorders what the view draws around it (issue 40). A line of ours that quotes graph
 * texts as 'text' (a change's summary, an undo's step line) isolates each quote and drops the
 * direction controls outside one, so a quote holding a ' cannot smuggle one past its end.
 */
const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function QuotedLine({ text }: { text: string }) {
  const parts: Array<{ quote: boolean; text: string }> = [];
  let last = 0;
  for (const match of text.matchAll(/'[^'\n]*'/g)) {
    parts.push({ quote: false, text: text.slice(last, match.index).replace(DIRECTION_CONTROLS, '') });
    parts.push({ quote: true, text: match[0] });
    last = match.index + match[0].length;
  }
  parts.push({ quote: false, text: text.slice(last).replace(DIRECTION_CONTROLS, '') });
  return <>{parts.map((p, i) => (p.quote ? <bdi key={i}>{p.text}</bdi> : p.text))}</>;
}
