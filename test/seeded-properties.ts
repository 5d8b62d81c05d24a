/**
 * Every fast-check property runs from one fixed seed, so a run of `npm test` is the same run each
 * time and a failure replays. To explore, FC_SEED=N picks another seed; ROAM_LONG_TESTS=1 draws a
 * fresh one (fast-check prints it with any counterexample). A property that sets its own seed keeps it.
 */
import fc from 'fast-check';

const seed = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : process.env.ROAM_LONG_TESTS === '1'
    ? undefined
    : 20_261_128;
fc.configureGlobal(seed === undefined ? {} : { seed });
