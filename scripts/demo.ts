// Placeholder demo; replaced once the emulator lands.
process.stderr.write('demo: not implemented yet\n');
process.exit(1);
