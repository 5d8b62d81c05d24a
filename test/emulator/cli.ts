// Placeholder emulator CLI; the foundation issue replaces it.
process.stderr.write('emulator: not implemented yet\n');
process.exit(1);
